/*
 * ramp.h -- colour ramps: a position t in [0, 1] becomes an RGB colour.
 *
 * A ramp is a list of stops (position, colour) with positions strictly increasing from exactly
 * 0 to exactly 1. The colour at t is interpolated linearly, channel by channel in sRGB byte
 * values, between the two stops around t: with stops (p0, c0) and (p1, c1) and p0 <= t <= p1,
 *     c(t) = c0 + (c1 - c0) * (t - p0) / (p1 - p0).
 * t below 0 gives the first colour, above 1 the last.
 *
 * Text form (--ramp): either a preset name (cli_ramp_presets) or stops separated by commas,
 * each POS:#RRGGBB, e.g. "0:#00224e,0.5:#7a7f3a,1:#ffffff":
 *   - POS: a real number (strtod syntax, finite) in [0, 1]; the first stop's must be 0 and the
 *     last one's 1; each larger than the one before;
 *   - #RRGGBB: '#' and exactly six hexadecimal digits (either case);
 *   - 2 to CLI_RAMP_MAX_STOPS stops; no spaces anywhere.
 */
#ifndef CNOISE_CLI_RAMP_H
#define CNOISE_CLI_RAMP_H

#include <stddef.h>
#include <stdint.h>

#define CLI_RAMP_MAX_STOPS 64

typedef struct cli_ramp {
    int n;                             /* number of stops, 2..CLI_RAMP_MAX_STOPS */
    double pos[CLI_RAMP_MAX_STOPS];    /* 0 = pos[0] < pos[1] < ... < pos[n-1] = 1 */
    uint8_t rgb[CLI_RAMP_MAX_STOPS][3];
} cli_ramp;

/* A named ramp: name, one-line description, and its text form (parsed by cli_ramp_parse). */
typedef struct cli_ramp_preset {
    const char *name;
    const char *description;
    const char *stops;
} cli_ramp_preset;

/* The presets, ending with an entry whose name is NULL. */
extern const cli_ramp_preset cli_ramp_presets[];

/*
 * Parses text (a preset name or the stop list above) into *out. Returns 0, or -1 with a
 * one-line reason in why[0..whylen) naming the bad stop (e.g. "stop 2 '0.5:#7a7f3': the colour
 * must be # and six hexadecimal digits"); *out is then unspecified.
 */
int cli_ramp_parse(const char *text, cli_ramp *out, char *why, size_t whylen);

/*
 * The colour at t (see above) as three channel values in [0, 255], not rounded (callers may
 * shade before rounding). NaN t gives the first colour.
 */
void cli_ramp_eval(const cli_ramp *r, double t, double rgb[3]);

/* Rounds a channel value to a byte: round half up, clamped to 0..255 (NaN gives 0). */
uint8_t cli_ramp_byte(double c);

#endif /* CNOISE_CLI_RAMP_H */
