/*
 * fuzz_ramp.c -- the text parsers of the CLI: colour ramps (--ramp), whole and real numbers,
 * sizes ("WxH") and the quoting of values in messages.
 *
 * Input: a NUL-terminated copy of the bytes, given to each parser.
 * Checks:
 *   - cli_ramp_parse: on success 2..64 stops, positions exactly 0 .. 1 and strictly increasing,
 *     every colour of cli_ramp_eval within the channel range of its two stops (and 0..255);
 *     on failure a non-empty, terminated reason;
 *   - cli_parse_u64: accepted text is digits only and its value equals a recomputation;
 *   - cli_parse_size: accepted sizes are 1..CLI_MAX_SIDE per side with at most CLI_MAX_PIXELS;
 *   - cli_parse_double/float with finite_only: accepted values are finite;
 *   - cli_quote: the result fits and has no control bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "fuzz.h"
#include "ramp.h"

static void check_ramp(const char *text)
{
    cli_ramp r;
    char why[256];
    memset(why, 'x', sizeof why);
    if (cli_ramp_parse(text, &r, why, sizeof why) != 0) {
        FUZZ_CHECK(memchr(why, 0, sizeof why) != NULL && why[0] != '\0', "no reason");
        return;
    }
    FUZZ_CHECK(r.n >= 2 && r.n <= CLI_RAMP_MAX_STOPS, "%d stops", r.n);
    FUZZ_CHECK(r.pos[0] == 0.0 && r.pos[r.n - 1] == 1.0, "ends %g %g", r.pos[0], r.pos[r.n - 1]);
    for (int i = 1; i < r.n; i++)
        FUZZ_CHECK(r.pos[i] > r.pos[i - 1], "stop %d not increasing", i);
    for (int i = 0; i + 1 < r.n; i++) {
        for (int k = 0; k <= 4; k++) {
            double t = r.pos[i] + (r.pos[i + 1] - r.pos[i]) * k / 4.0;
            double c[3];
            cli_ramp_eval(&r, t, c);
            for (int ch = 0; ch < 3; ch++) {
                double a = r.rgb[i][ch], b = r.rgb[i + 1][ch];
                double lo = a < b ? a : b, hi = a < b ? b : a;
                FUZZ_CHECK(c[ch] >= lo - 1e-9 && c[ch] <= hi + 1e-9, "t %.17g channel %d = %g not in [%g, %g]", t,
                           ch, c[ch], lo, hi);
                uint8_t byte = cli_ramp_byte(c[ch]);
                FUZZ_CHECK(byte >= lo - 1 && byte <= hi + 1, "byte %u", byte);
            }
        }
    }
    double c[3];
    cli_ramp_eval(&r, NAN, c);
    FUZZ_CHECK(c[0] == r.rgb[0][0] && c[1] == r.rgb[0][1] && c[2] == r.rgb[0][2], "NaN t");
}

static void check_numbers(const char *text)
{
    uint64_t u;
    if (cli_parse_u64(text, &u) == CLI_NUM_OK) {
        uint64_t v = 0;
        FUZZ_CHECK(text[0] != '\0', "empty accepted");
        for (const char *p = text; *p; p++) {
            FUZZ_CHECK(*p >= '0' && *p <= '9', "non-digit accepted in '%s'", text);
            FUZZ_CHECK(v <= (UINT64_MAX - (uint64_t)(*p - '0')) / 10, "overflow accepted in '%s'", text);
            v = v * 10 + (uint64_t)(*p - '0');
        }
        FUZZ_CHECK(v == u, "'%s' read as %llu", text, (unsigned long long)u);
    }
    int iv;
    if (cli_parse_int(text, 3, 77, &iv) == CLI_NUM_OK)
        FUZZ_CHECK(iv >= 3 && iv <= 77, "int %d", iv);
    uint32_t w, h;
    char why[128];
    if (cli_parse_size(text, &w, &h, why, sizeof why) == CLI_NUM_OK)
        FUZZ_CHECK(w >= 1 && h >= 1 && w <= CLI_MAX_SIDE && h <= CLI_MAX_SIDE &&
                       (uint64_t)w * h <= CLI_MAX_PIXELS,
                   "size %ux%u", w, h);
    double d;
    if (cli_parse_double(text, 1, &d) == CLI_NUM_OK)
        FUZZ_CHECK(isfinite(d), "non-finite accepted: '%s'", text);
    float f;
    if (cli_parse_float(text, 1, &f) == CLI_NUM_OK)
        FUZZ_CHECK(isfinite(f), "non-finite float accepted: '%s'", text);
    for (size_t n = 8; n <= 64; n += 56) {
        char q[64];
        cli_quote(text, q, n);
        size_t len = strnlen(q, n);
        FUZZ_CHECK(len < n, "quote not terminated");
        for (size_t k = 0; k < len; k++)
            FUZZ_CHECK((unsigned char)q[k] >= 0x20 && q[k] != 0x7f, "control byte in quote");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    check_ramp(text);
    check_numbers(text);
    free(text);
    return 0;
}
