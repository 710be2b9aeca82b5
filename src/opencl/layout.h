/*
 * layout.h -- what the OpenCL program reads of the generator, as a list: the host copies
 * cn__gen to the device as bytes, so both compilers must lay it out alike. noise.cl's cn_layout
 * kernel writes these sizes and offsets as the device compiler sees them, and src/opencl.c
 * compares them with its own (a device that differs is refused).
 * CN_CL_LAYOUT(SIZE, OFFSET) calls SIZE(type) and OFFSET(type, field), in this order.
 */
#ifndef CN_CL_LAYOUT_H
#define CN_CL_LAYOUT_H

#define CN_CL_LAYOUT(SIZE, OFFSET)                                                         \
    SIZE(cn__gen) OFFSET(cn__gen, cfg) OFFSET(cn__gen, scale) OFFSET(cn__gen, inner)       \
    OFFSET(cn__gen, oct) OFFSET(cn__gen, perm) SIZE(struct cn__octave)                     \
    OFFSET(cn_config, seed) OFFSET(cn_config, rotation) OFFSET(cn_config, period)          \
    OFFSET(cn_config, bias) OFFSET(struct cn__octave, mult)
#define CN_CL_LAYOUT_COUNT 12

#endif
