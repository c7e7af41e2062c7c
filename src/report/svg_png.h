/*
 * svg_png — an SVG picture as PNG (svg_png.c), for `storbench plot -o FILE.png`:
 * rendered by librsvg (Debian's librsvg2) onto a cairo image surface at the
 * SVG's own size in pixels, so the PNG is the SVG storbench wrote, pixel for
 * pixel as a browser would draw it, with no browser at run time.
 */
#ifndef SB_REPORT_SVG_PNG_H
#define SB_REPORT_SVG_PNG_H

#include <stddef.h>
#include <stdio.h>

/* Writes the PNG of svg (len bytes) to out. 0, or -EINVAL (librsvg cannot read the SVG)
 * or -EIO (cairo cannot render or write it) with one line in err. */
int sb_svg_to_png(FILE *out, const char *svg, size_t len, char *err, size_t errlen);

#endif
