/*
 * guard.c -- the temporary-file signal guard of guard.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "guard.h"
#include "cn_image.h"

#include <signal.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#include <unistd.h>
#endif

static char slot_path[CLI_GUARD_SLOTS][CLI_GUARD_PATH_MAX];
static volatile sig_atomic_t slot_live[CLI_GUARD_SLOTS];
static int nlive;

#ifdef _WIN32
/*
 * Windows has no signals to catch: Ctrl-C, Ctrl-Break and closing the console reach a console
 * control handler, which the system runs on a thread of its own. Holding the signals is holding a
 * lock that the handler takes before it removes the registered files (so a commit is never split
 * by it, and no path is half-copied when it reads them); it then returns FALSE, and the next
 * handler, the default one, ends the process.
 */
static CRITICAL_SECTION lock;
static int lock_ready, lock_depth;

static BOOL WINAPI on_console_event(DWORD event)
{
    (void)event;
    EnterCriticalSection(&lock);
    for (int k = 0; k < CLI_GUARD_SLOTS; k++)
        if (slot_live[k])
            DeleteFileA(slot_path[k]);
    LeaveCriticalSection(&lock);
    return FALSE;
}

static void install(void) { SetConsoleCtrlHandler(on_console_event, TRUE); }

static void uninstall(void) { SetConsoleCtrlHandler(on_console_event, FALSE); }

void cli_guard_block(void)
{
    if (!lock_ready) { /* the main thread's first call, before any handler is installed */
        InitializeCriticalSection(&lock);
        lock_ready = 1;
    }
    EnterCriticalSection(&lock); /* recursive: calls nest */
    lock_depth++;
}

void cli_guard_unblock(void)
{
    if (lock_depth <= 0)
        return;
    lock_depth--;
    LeaveCriticalSection(&lock);
}
#else

/* Every signal whose default action ends the process and that a handler can catch, except the
 * ones a fault raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS, SIGTRAP: the sanitizers and
 * debuggers own those). Filled by list_signals(); the real-time signals are counted at run time. */
static const int fixed[] = {
    SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGABRT,
#ifdef SIGXCPU
    SIGXCPU,
#endif
#ifdef SIGXFSZ
    SIGXFSZ, /* main() ignores it (writes then fail with EFBIG), so it stays ignored here */
#endif
#ifdef SIGVTALRM
    SIGVTALRM,
#endif
#ifdef SIGPROF
    SIGPROF,
#endif
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};
#define NFIXED (sizeof fixed / sizeof fixed[0])
#define CAUGHT_MAX (NFIXED + 64)
static int caught[CAUGHT_MAX];
static size_t ncaught;

static void list_signals(void)
{
    if (ncaught)
        return;
    for (size_t k = 0; k < NFIXED; k++)
        caught[ncaught++] = fixed[k];
#ifdef SIGRTMIN
    for (int s = SIGRTMIN; s <= SIGRTMAX && ncaught < CAUGHT_MAX; s++)
        caught[ncaught++] = s;
#endif
}

static struct sigaction saved[CAUGHT_MAX];
static int installed[CAUGHT_MAX];

static sigset_t block_saved;
static int block_depth;

static void on_signal(int sig)
{
    for (int k = 0; k < CLI_GUARD_SLOTS; k++)
        if (slot_live[k])
            unlink(slot_path[k]); /* async-signal-safe */
    /* SA_RESETHAND restored the default action; the signal is blocked until this handler
     * returns, and then the process dies of it. */
    raise(sig);
}

static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < ncaught; k++)
        sigaddset(&sa.sa_mask, caught[k]); /* one handler at a time */
    sa.sa_flags = SA_RESETHAND;
    for (size_t k = 0; k < ncaught; k++) {
        struct sigaction old;
        if (sigaction(caught[k], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* keep ignoring what was ignored (nohup) */
        if (sigaction(caught[k], &sa, &saved[k]) == 0)
            installed[k] = 1;
    }
}

static void uninstall(void)
{
    for (size_t k = 0; k < ncaught; k++)
        if (installed[k]) {
            sigaction(caught[k], &saved[k], NULL);
            installed[k] = 0;
        }
}

void cli_guard_block(void)
{
    if (block_depth++ > 0)
        return;
    list_signals();
    sigset_t set;
    sigemptyset(&set);
    for (size_t k = 0; k < ncaught; k++)
        sigaddset(&set, caught[k]);
    pthread_sigmask(SIG_BLOCK, &set, &block_saved);
}

void cli_guard_unblock(void)
{
    if (block_depth <= 0)
        return;
    if (--block_depth == 0)
        pthread_sigmask(SIG_SETMASK, &block_saved, NULL);
}
#endif

int cli_guard_add(const char *path)
{
    if (!path)
        return -1;
    size_t len = strlen(path);
    if (len >= CLI_GUARD_PATH_MAX)
        return -1;
    int handle = -1;
    cli_guard_block(); /* the handler must never see a half-copied path */
    for (int k = 0; k < CLI_GUARD_SLOTS; k++)
        if (!slot_live[k]) {
            memcpy(slot_path[k], path, len + 1);
            slot_live[k] = 1;
            if (nlive++ == 0)
                install();
            handle = k;
            break;
        }
    cli_guard_unblock();
    return handle;
}

void cli_guard_remove(int handle)
{
    if (handle < 0 || handle >= CLI_GUARD_SLOTS || !slot_live[handle])
        return;
    cli_guard_block();
    slot_live[handle] = 0;
    if (--nlive == 0)
        uninstall();
    cli_guard_unblock();
}

int cli_guard_begin(cn_image_writer **w, int *handle, const char *path, cn_image_format format, uint32_t width,
                    uint32_t height, uint32_t depth, char *err, size_t errlen)
{
    cli_guard_block();
    int rc = cn_image_begin(w, path, format, width, height, depth, err, errlen);
    *handle = rc == 0 ? cli_guard_add(cn_image_temp_path(*w)) : -1;
    cli_guard_unblock();
    return rc;
}
