/*
 * without.c -- the entry points of the writers a build leaves out. The GIF, OpenEXR and TIFF
 * writers need giflib, OpenEXR's OpenEXRCore and libtiff + libgeotiff + PROJ; a build turns one
 * off with CMake's CNOISE_WITH_GIF, CNOISE_WITH_EXR or CNOISE_WITH_TIFF (scripts/test-windows.sh
 * does: Debian has no Windows builds of them). In its place this file's functions refuse every
 * call with a message that names the option, and nothing is created.
 */
#include "cn_image.h"
#include "ext.h"

#if !CN_IMAGE_WITH_GIF
#define NO_GIF "this cnoise was built without GIF output (giflib; CMake option CNOISE_WITH_GIF)"

int cn_image_gif_begin(cn_image_gif **out, const char *path, uint32_t width, uint32_t height,
                       const uint8_t *palette, unsigned delay_cs, int loop, char *err, size_t errlen)
{
    (void)width, (void)height, (void)palette, (void)delay_cs, (void)loop;
    if (out)
        *out = NULL;
    cn__put_err(err, errlen, "cannot write '%s': %s", path ? path : "?", NO_GIF);
    return -1;
}

int cn_image_gif_add_frame(cn_image_gif *g, const uint8_t *pixels, size_t stride, char *err, size_t errlen)
{
    (void)g, (void)pixels, (void)stride;
    cn__put_err(err, errlen, "%s", NO_GIF);
    return -1;
}

uint64_t cn_image_gif_frames(const cn_image_gif *g)
{
    (void)g;
    return 0;
}

int cn_image_gif_commit(cn_image_gif *g, char *err, size_t errlen)
{
    (void)g;
    cn__put_err(err, errlen, "%s", NO_GIF);
    return -1;
}

void cn_image_gif_abort(cn_image_gif *g) { (void)g; }

int cn_image_gif_finish(cn_image_gif *g, cn_image_pending **out, char *err, size_t errlen)
{
    (void)g;
    if (out)
        *out = NULL;
    cn__put_err(err, errlen, "%s", NO_GIF);
    return -1;
}

const char *cn_image_gif_temp_path(const cn_image_gif *g)
{
    (void)g;
    return NULL;
}
#endif

#if !CN_IMAGE_WITH_EXR
int cn__exr_begin(cn__ext **out, cn__outfile *o, int half, uint32_t width, uint32_t height)
{
    (void)half, (void)width, (void)height;
    *out = NULL;
    cn__out_msg(o, "cannot write '%s': this cnoise was built without OpenEXR output (OpenEXRCore; CMake option "
                   "CNOISE_WITH_EXR)", o->path);
    return -1;
}
#endif

#if !CN_IMAGE_WITH_TIFF
#define NO_TIFF "this cnoise was built without TIFF output (libtiff, libgeotiff, PROJ; CMake option CNOISE_WITH_TIFF)"

int cn__tiff_begin(cn__ext **out, cn__outfile *o, uint32_t width, uint32_t height, uint32_t depth)
{
    (void)width, (void)height, (void)depth;
    *out = NULL;
    cn__out_msg(o, "cannot write '%s': %s", o->path, NO_TIFF);
    return -1;
}

int cn_image_georef_check(const cn_image_georef *g, char *name, size_t namelen, char *err, size_t errlen)
{
    (void)g;
    if (name && namelen)
        name[0] = '\0';
    cn__put_err(err, errlen, "%s", NO_TIFF);
    return -1;
}
#endif
