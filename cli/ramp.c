/*
 * ramp.c -- colour ramps (ramp.h): presets, the --ramp parser, interpolation.
 */
#define _POSIX_C_SOURCE 200809L

#include "ramp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"

/*
 * The presets. Their stops were chosen for cnoise by eye; "terrain" puts the coastline at 0.5
 * (cnoise map maps sea level there: 0..0.5 is the sea from the deepest to the shore, 0.5..1 the
 * land from the shore to the highest peaks).
 */
const cli_ramp_preset cli_ramp_presets[] = {
    {"gray", "black to white", "0:#000000,1:#ffffff"},
    {"terrain", "deep sea, shallows, beach, lowland green, highland, rock, snow (coast at 0.5)",
     "0:#081a40,0.3:#113876,0.42:#1b5f9e,0.485:#3a89bd,0.5:#8fc9d8,0.502:#e3d8a6,0.512:#b3c57a,"
     "0.54:#74a651,0.58:#4d8640,0.62:#5f7a3e,0.65:#8a7a4e,0.68:#8b6b4d,0.715:#8d8780,0.75:#e4e4e2,1:#ffffff"},
    {"land", "land only: green lowland, brown hills, grey rock, snow",
     "0:#2f6b34,0.3:#6f9a4c,0.55:#a89a5c,0.72:#8a6a4a,0.86:#8c8884,1:#f4f4f4"},
    {"ocean", "abyss to shallow water", "0:#04112b,0.4:#0d3a6e,0.75:#2b7fb0,0.92:#6cc0d6,1:#b8e6ea"},
    {"heat", "black, red, orange, yellow, white", "0:#000000,0.3:#7a0c0c,0.55:#e0531b,0.8:#f7c23d,1:#ffffff"},
    {"dusk", "perceptually ordered violet, blue, teal, green, yellow",
     "0:#2a0f45,0.2:#3d3c8a,0.4:#2f6f8f,0.6:#2c9c86,0.8:#7cc457,1:#f2e634"},
    {NULL, NULL, NULL},
};

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* One stop "POS:#RRGGBB" of length len at s; k is its 1-based number for messages. */
static int parse_stop(const char *s, size_t len, int k, double prev, int last, cli_ramp *out, char *why,
                      size_t whylen)
{
    char text[96], q[128];
    if (len >= sizeof text) {
        memcpy(text, s, sizeof text - 1);
        text[sizeof text - 1] = '\0';
        snprintf(why, whylen, "stop %d %s: too long (expected POS:#RRGGBB)", k, cli_quote(text, q, sizeof q));
        return -1;
    }
    memcpy(text, s, len);
    text[len] = '\0';
    cli_quote(text, q, sizeof q);
    char *colon = strchr(text, ':');
    if (!colon) {
        snprintf(why, whylen, "stop %d %s: expected POS:#RRGGBB (a position in [0, 1], ':', a colour)", k, q);
        return -1;
    }
    *colon = '\0';
    double p;
    if (cli_parse_double(text, 1, &p) != CLI_NUM_OK) {
        snprintf(why, whylen, "stop %d %s: the position is not a finite number", k, q);
        return -1;
    }
    if (p < 0.0 || p > 1.0) {
        snprintf(why, whylen, "stop %d %s: the position must be in [0, 1]", k, q);
        return -1;
    }
    if (k == 1 && p != 0.0) {
        snprintf(why, whylen, "stop 1 %s: the first position must be 0", q);
        return -1;
    }
    if (k > 1 && !(p > prev)) {
        snprintf(why, whylen, "stop %d %s: positions must increase (the stop before is at %.17g)", k, q, prev);
        return -1;
    }
    if (last && p != 1.0) {
        snprintf(why, whylen, "stop %d %s: the last position must be 1", k, q);
        return -1;
    }
    const char *c = colon + 1;
    int ok = c[0] == '#' && strlen(c) == 7;
    for (int i = 1; ok && i < 7; i++)
        ok = hex_digit(c[i]) >= 0;
    if (!ok) {
        snprintf(why, whylen, "stop %d %s: the colour must be '#' and six hexadecimal digits (#rrggbb)", k, q);
        return -1;
    }
    out->pos[k - 1] = p;
    for (int ch = 0; ch < 3; ch++)
        out->rgb[k - 1][ch] = (uint8_t)(hex_digit(c[1 + 2 * ch]) * 16 + hex_digit(c[2 + 2 * ch]));
    return 0;
}

int cli_ramp_parse(const char *text, cli_ramp *out, char *why, size_t whylen)
{
    if (!text || !text[0]) {
        snprintf(why, whylen, "empty: give a preset name or stops POS:#RRGGBB,...");
        return -1;
    }
    for (const cli_ramp_preset *p = cli_ramp_presets; p->name; p++)
        if (strcmp(text, p->name) == 0)
            return cli_ramp_parse(p->stops, out, why, whylen);
    if (!strchr(text, ':')) {
        char names[256] = "";
        size_t o = 0;
        for (const cli_ramp_preset *p = cli_ramp_presets; p->name; p++)
            o += (size_t)snprintf(names + o, o < sizeof names ? sizeof names - o : 0, "%s%s",
                                  p == cli_ramp_presets ? "" : ", ", p->name);
        char q[128];
        snprintf(why, whylen, "%s is not a preset (%s) nor a list of stops POS:#RRGGBB,...",
                 cli_quote(text, q, sizeof q), names);
        return -1;
    }
    int n = 1;
    for (const char *s = text; *s; s++)
        n += *s == ',';
    if (n < 2 || n > CLI_RAMP_MAX_STOPS) {
        snprintf(why, whylen, "%d stop%s: a ramp needs 2 to %d stops", n, n == 1 ? "" : "s", CLI_RAMP_MAX_STOPS);
        return -1;
    }
    const char *s = text;
    double prev = 0.0;
    for (int k = 1; k <= n; k++) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (parse_stop(s, len, k, prev, k == n, out, why, whylen) != 0)
            return -1;
        prev = out->pos[k - 1];
        s += len + (end ? 1 : 0);
    }
    out->n = n;
    return 0;
}

void cli_ramp_eval(const cli_ramp *r, double t, double rgb[3])
{
    int k = 0;
    if (!(t > r->pos[0])) {
        k = 0;
        t = r->pos[0];
    } else if (t >= r->pos[r->n - 1]) {
        k = r->n - 2;
        t = r->pos[r->n - 1];
    } else {
        while (k + 2 < r->n && t >= r->pos[k + 1])
            k++;
    }
    double f = (t - r->pos[k]) / (r->pos[k + 1] - r->pos[k]);
    for (int ch = 0; ch < 3; ch++) {
        double c0 = r->rgb[k][ch], c1 = r->rgb[k + 1][ch];
        rgb[ch] = c0 + (c1 - c0) * f;
    }
}

uint8_t cli_ramp_byte(double c)
{
    if (!(c > 0.0))
        return 0;
    if (c >= 255.0)
        return 255;
    return (uint8_t)floor(c + 0.5);
}
