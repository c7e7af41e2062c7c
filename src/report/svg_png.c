/*
 * svg_png — SVG to PNG with librsvg and cairo (svg_png.h). The surface is the SVG's
 * intrinsic size in pixels (plot writes width and height in px), white behind it so
 * that a viewer without transparency shows what the SVG shows. cairo writes the PNG
 * through a callback into the caller's FILE, so that the atomic file of `plot -o`
 * gets it and a write error keeps its errno in that stream.
 */
#include "report/svg_png.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <librsvg/rsvg.h>

#define MAX_PX 20000 /* a side beyond this is a mistake, not a chart */

static cairo_status_t write_png(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int render(FILE *out, RsvgHandle *h, int w, int ht, char *err, size_t errlen)
{
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, ht);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    RsvgRectangle viewport = {0, 0, w, ht};
    GError *gerr = NULL;
    int rc = 0;
    if (!rsvg_handle_render_document(h, cr, &viewport, &gerr)) {
        snprintf(err, errlen, "cannot render the SVG: %s", gerr ? gerr->message : "librsvg failed");
        rc = -EIO;
    }
    if (gerr)
        g_error_free(gerr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    if (rc == 0 && cairo_surface_write_to_png_stream(surface, write_png, out) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cannot write the PNG");
        rc = -EIO;
    }
    cairo_surface_destroy(surface);
    return rc;
}

int sb_svg_to_png(FILE *out, const char *svg, size_t len, char *err, size_t errlen)
{
    GError *gerr = NULL;
    RsvgHandle *h = rsvg_handle_new_from_data((const guint8 *)svg, len, &gerr);
    if (!h) {
        snprintf(err, errlen, "librsvg cannot read the SVG: %s", gerr ? gerr->message : "unknown error");
        if (gerr)
            g_error_free(gerr);
        return -EINVAL;
    }
    gdouble w = 0, ht = 0;
    int rc;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &ht) || !(w >= 1 && w <= MAX_PX) ||
        !(ht >= 1 && ht <= MAX_PX)) {
        snprintf(err, errlen, "the SVG has no size in pixels from 1 to %d", MAX_PX);
        rc = -EINVAL;
    } else {
        rc = render(out, h, (int)ceil(w), (int)ceil(ht), err, errlen);
    }
    g_object_unref(h);
    return rc;
}
