/* test_misuse.c -- misuse is never silent.
 *
 * 1. What every build does: a NULL, zeroed, never-built or failed generator, a call of the wrong
 *    dimension and wrong sizes each give their documented status (cn_noise_check, the batch
 *    calls, the conveniences) or NaN (the single-point calls).
 * 2. What a debug build does: this program links src/misuse.c compiled with CN_DEBUG_MISUSE (as
 *    CMake's Debug configuration compiles the library) in front of the library's own copy, so each
 *    single-point misuse stops the process (SIGABRT) with a message naming the call and the
 *    problem, unless CNOISE_MISUSE=return; a correct call does not stop. Each case runs in a child
 *    process. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cnoise.h"
#include "test.h"

static cn_noise built(int dims)
{
    cn_config c;
    cn_config_init(&c);
    c.dims = dims;
    cn_noise g;
    CHECK(cn_noise_build(&g, &c) == CN_OK, "build %dD", dims);
    return g;
}

static void test_statuses(void)
{
    cn_noise g3 = built(3), zero, failed, never;
    memset(&zero, 0, sizeof zero);
    memset(&never, 0xA5, sizeof never);
    cn_config bad;
    cn_config_init(&bad);
    bad.frequency = -1;
    CHECK(cn_noise_build(&failed, &bad) == CN_E_FREQUENCY, "a bad configuration builds");

    CHECK(cn_noise_check(NULL, 0) == CN_E_NULL, "cn_noise_check(NULL)");
    CHECK(cn_noise_check(&g3, 0) == CN_OK && cn_noise_check(&g3, 3) == CN_OK, "cn_noise_check of a 3D generator");
    CHECK(cn_noise_check(&g3, 2) == CN_E_DIMS && cn_noise_check(&g3, 4) == CN_E_DIMS, "dimension mismatch not found");
    const cn_noise *unusable[3] = {&zero, &failed, &never};
    const char *names[3] = {"zeroed", "failed build", "never built (garbage)"};
    for (int k = 0; k < 3; k++) {
        const cn_noise *u = unusable[k];
        float img[4];
        double r[2];
        CHECK(cn_noise_check(u, 0) == CN_E_UNBUILT, "%s: cn_noise_check", names[k]);
        CHECK(cn_noise_config(u) == NULL, "%s: cn_noise_config is not NULL", names[k]);
        CHECK(cn_noise_range(u, r) == CN_E_UNBUILT, "%s: cn_noise_range", names[k]);
        CHECK(cn_grid2f(u, 0, 0, 1, 2, 2, img) == CN_E_UNBUILT, "%s: cn_grid2f", names[k]);
        CHECK(isnan(cn_eval2(u, 1, 2)) && isnan(cn_eval2f(u, 1, 2)), "%s: cn_eval2 is a number", names[k]);
    }
    const cn_config *c = cn_noise_config(&g3);
    CHECK(c && c->dims == 3 && c->frequency == 1.0 / 64, "cn_noise_config of the 3D generator");

    /* The wrong dimension: NaN from the point calls, CN_E_DIMS from the conveniences. */
    CHECK(isnan(cn_eval2(&g3, 1, 2)) && isnan(cn_eval4f(&g3, 1, 2, 3, 4)), "cn_eval2/cn_eval4f on a 3D generator");
    CHECK(!isnan(cn_eval3(&g3, 1, 2, 3)), "cn_eval3 on a 3D generator is NaN");
    float img[8];
    CHECK(cn_grid2f(&g3, 0, 0, 1, 2, 2, img) == CN_E_DIMS, "cn_grid2f on a 3D generator");
    CHECK(cn_grid3f(&g3, 0, 0, 0, 1, 2, 2, 2, img) == CN_OK, "cn_grid3f on a 3D generator");
    cn_noise g2 = built(2);
    CHECK(cn_grid3f(&g2, 0, 0, 0, 1, 2, 2, 2, img) == CN_E_DIMS, "cn_grid3f on a 2D generator");

    /* Wrong sizes: an output shorter than the grid, a size product that overflows, a size 0. */
    const double o[2] = {0, 0}, s[2] = {1, 1};
    const size_t n[2] = {3, 3};
    CHECK(cn_grid_evalf(&g2, o, s, n, img, 8, 1, NULL) == CN_E_RANGE, "a 3x3 grid into 8 floats");
    CHECK(cn_grid2f(&g2, 0, 0, 1, SIZE_MAX / 2, 3, img) == CN_E_OVERFLOW, "cn_grid2f size overflow");
    CHECK(cn_grid2f(&g2, 0, 0, 1, 0, 3, img) == CN_E_RANGE, "cn_grid2f width 0");
    CHECK(cn_grid2f(&g2, 0, 0, 1, 2, 2, NULL) == CN_E_NULL, "cn_grid2f NULL output");
}

/* Runs fn in a child with stderr captured; returns its wait status and the text in msg. */
static int in_child(void (*fn)(void), int quiet, char *msg, size_t n)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        if (quiet)
            setenv("CNOISE_MISUSE", "return", 1);
        else
            unsetenv("CNOISE_MISUSE");
        fn();
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(fd[0], msg + got, n - 1 - got)) > 0)
        got += (size_t)r;
    msg[got] = '\0';
    close(fd[0]);
    int status = -1;
    waitpid(pid, &status, 0);
    return status;
}

static void misuse_dims(void)
{
    cn_noise g = built(3);
    if (!isnan(cn_eval2(&g, 1, 2)))
        _exit(3);
}
static void misuse_zeroed(void)
{
    cn_noise g;
    memset(&g, 0, sizeof g);
    if (!isnan(cn_eval3f(&g, 1, 2, 3)))
        _exit(3);
}
static void misuse_null(void)
{
    double p[2] = {1, 2};
    if (!isnan(cn_eval(NULL, p)))
        _exit(3);
}
static void misuse_null_point(void)
{
    cn_noise g = built(2);
    if (!isnan(cn_evalf(&g, NULL)))
        _exit(3);
}
static void correct_use(void)
{
    cn_noise g = built(2);
    double p[2] = {30, 40};
    if (isnan(cn_eval2(&g, 30, 40)) || isnan(cn_eval(&g, p)) || cn_noise_check(&g, 2) != CN_OK)
        _exit(3);
}

static void test_debug_stop(void)
{
    static const struct {
        void (*fn)(void);
        const char *what, *words[2];
    } cases[] = {
        {misuse_dims, "cn_eval2 on a 3D generator", {"cn_eval2: ", "the generator is 3D, but this call takes 2"}},
        {misuse_zeroed, "cn_eval3f on a zeroed generator", {"cn_eval3f: ", "not built"}},
        {misuse_null, "cn_eval with a NULL generator", {"cn_eval: ", "the generator is NULL"}},
        {misuse_null_point, "cn_evalf with NULL coordinates", {"cn_evalf: ", "coordinate pointer is NULL"}},
    };
    char msg[1024];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int st = in_child(cases[k].fn, 0, msg, sizeof msg);
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "%s: a debug build does not stop (status %d)", cases[k].what,
              st);
        CHECK(strncmp(msg, "cnoise: ", 8) == 0 && strstr(msg, cases[k].words[0]) && strstr(msg, cases[k].words[1]),
              "%s: message '%s'", cases[k].what, msg);
        st = in_child(cases[k].fn, 1, msg, sizeof msg);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && msg[0] == '\0',
              "%s, CNOISE_MISUSE=return: status %d, message '%s' (want NaN, silence)", cases[k].what, st, msg);
    }
    int st = in_child(correct_use, 0, msg, sizeof msg);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && msg[0] == '\0', "correct calls: status %d, message '%s'", st, msg);
}

int main(void)
{
    setenv("CNOISE_MISUSE", "return", 1); /* this process misuses on purpose in test_statuses */
    test_statuses();
    test_debug_stop();
    return test_summary("test_misuse");
}
