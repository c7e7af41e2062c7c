/*
 * svg_png — SVG to PNG with librsvg and cairo (svg_png.h). The surface is the SVG's
 * intrinsic size in pixels (plot writes width and height in px), white behind it so
 * that a viewer without transparency shows what the SVG shows. cairo writes the PNG
 * through a callback into the caller's FILE, so that the atomic file of `plot -o`
 * gets it and a write error keeps its errno in that stream.
 *
 * librsvg is loaded when a PNG is asked for (dlopen), not linked: it brings some forty
 * libraries (glib, cairo, pango, fontconfig ...) whose relocations every start of every
 * command would pay for (21 ms to 33 ms for `storbench --version` here). Its headers give
 * the functions' types; the library is not closed again (GLib's types stay registered).
 */
#include "report/svg_png.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <librsvg/rsvg.h>

#define LIBRSVG "librsvg-2.so.2" /* Debian's librsvg2-2 */

/* The functions used, found in librsvg and the libraries it loads (cairo, GLib). */
typedef struct png_lib {
    __typeof__(&rsvg_handle_new_from_data) new_from_data;
    __typeof__(&rsvg_handle_get_intrinsic_size_in_pixels) size_in_pixels;
    __typeof__(&rsvg_handle_render_document) render_document;
    __typeof__(&g_error_free) error_free;
    __typeof__(&g_object_unref) object_unref;
    __typeof__(&cairo_image_surface_create) surface_create;
    __typeof__(&cairo_create) create;
    __typeof__(&cairo_set_source_rgb) set_source_rgb;
    __typeof__(&cairo_paint) paint;
    __typeof__(&cairo_destroy) destroy;
    __typeof__(&cairo_surface_flush) surface_flush;
    __typeof__(&cairo_surface_write_to_png_stream) write_to_png_stream;
    __typeof__(&cairo_surface_destroy) surface_destroy;
} png_lib;

static int png_lib_open(png_lib *l, char *err, size_t errlen)
{
    void *h = dlopen(LIBRSVG, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "PNG output needs %s (Debian package librsvg2-2): %s", LIBRSVG, dlerror());
        return -ENOTSUP;
    }
    static const char *const names[] = {
        "rsvg_handle_new_from_data", "rsvg_handle_get_intrinsic_size_in_pixels",
        "rsvg_handle_render_document", "g_error_free", "g_object_unref",
        "cairo_image_surface_create", "cairo_create", "cairo_set_source_rgb", "cairo_paint",
        "cairo_destroy", "cairo_surface_flush", "cairo_surface_write_to_png_stream",
        "cairo_surface_destroy"};
    void **slot = (void **)l;
    _Static_assert(sizeof(png_lib) == sizeof names / sizeof names[0] * sizeof(void *), "one name per slot");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(slot[i] = dlsym(h, names[i]))) {
            snprintf(err, errlen, "%s has no %s", LIBRSVG, names[i]);
            return -ENOTSUP;
        }
    }
    return 0;
}

#define MAX_PX 20000 /* a side beyond this is a mistake, not a chart */

static cairo_status_t write_png(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int render(const png_lib *l, FILE *out, RsvgHandle *h, int w, int ht, char *err, size_t errlen)
{
    cairo_surface_t *surface = l->surface_create(CAIRO_FORMAT_ARGB32, w, ht);
    cairo_t *cr = l->create(surface);
    l->set_source_rgb(cr, 1, 1, 1);
    l->paint(cr);
    RsvgRectangle viewport = {0, 0, w, ht};
    GError *gerr = NULL;
    int rc = 0;
    if (!l->render_document(h, cr, &viewport, &gerr)) {
        snprintf(err, errlen, "cannot render the SVG: %s", gerr ? gerr->message : "librsvg failed");
        rc = -EIO;
    }
    if (gerr)
        l->error_free(gerr);
    l->destroy(cr);
    l->surface_flush(surface);
    if (rc == 0 && l->write_to_png_stream(surface, write_png, out) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cannot write the PNG");
        rc = -EIO;
    }
    l->surface_destroy(surface);
    return rc;
}

int sb_svg_to_png(FILE *out, const char *svg, size_t len, char *err, size_t errlen)
{
    png_lib l;
    int rc = png_lib_open(&l, err, errlen);
    if (rc < 0)
        return rc;
    GError *gerr = NULL;
    RsvgHandle *h = l.new_from_data((const guint8 *)svg, len, &gerr);
    if (!h) {
        snprintf(err, errlen, "librsvg cannot read the SVG: %s", gerr ? gerr->message : "unknown error");
        if (gerr)
            l.error_free(gerr);
        return -EINVAL;
    }
    gdouble w = 0, ht = 0;
    if (!l.size_in_pixels(h, &w, &ht) || !(w >= 1 && w <= MAX_PX) ||
        !(ht >= 1 && ht <= MAX_PX)) {
        snprintf(err, errlen, "the SVG has no size in pixels from 1 to %d", MAX_PX);
        rc = -EINVAL;
    } else {
        rc = render(&l, out, h, (int)ceil(w), (int)ceil(ht), err, errlen);
    }
    l.object_unref(h);
    return rc;
}
