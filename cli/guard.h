/*
 * guard.h -- removes the temporary files of unfinished outputs when the process is killed by a
 * signal: SIGINT (Ctrl-C), SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGABRT,
 * SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGPOLL, SIGPWR, SIGSTKFLT and the real-time signals:
 * every signal whose default action ends the process and that can be caught, except the ones a
 * fault raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS, SIGTRAP), which the sanitizers and
 * debuggers handle.
 *
 * The image writers put every output into a temporary file next to its target and link or rename
 * it into place on commit; they remove it themselves on any failure they see. Where the file
 * system has O_TMPFILE that file has no name until it is complete (cn_image.h, "Safe
 * replacement"), so a killed process leaves nothing behind and cn_image_temp_path() is NULL: there
 * is nothing to register. Otherwise (the named-file fallback) a signal that kills the process
 * skips the writers' clean-up, so a command registers each temporary path here while it is live.
 * The handler unlinks every registered path (unlink() is async-signal-safe), restores the default
 * action and re-raises the signal, so the process still dies of it (exit status 128+n in a shell).
 * A signal that was ignored when the first path was registered (e.g. under nohup, and SIGXFSZ,
 * which main() ignores so that a write past "ulimit -f" fails with EFBIG) stays ignored. With
 * the fallback only SIGKILL, a crash or a power cut can leave a temporary file behind.
 *
 * Commits run with the signals held (cli_guard_block), so a signal that comes during one is
 * delivered only when every file of the output is in place or gone.
 *
 * Usage, with no window in which the file exists but is not registered:
 *     cli_guard_block();                 // hold the signals
 *     create the temporary file (e.g. cn_image_png_begin)
 *     int g = cli_guard_add(temp_path);  // copies the path
 *     cli_guard_unblock();               // a signal that came meanwhile is delivered now
 *     ... write ...
 *     cli_guard_block();                 // the commit (link or rename) is not split by a signal
 *     commit or abort
 *     cli_guard_remove(g);
 *     cli_guard_unblock();
 *
 * Up to CLI_GUARD_SLOTS paths may be registered at once (e.g. a GIF and a PNG frame). The
 * handlers are installed when the first path is registered and the previous actions restored
 * when the last one is removed. Call these functions from one thread (the main thread); the
 * handler itself may run on any thread.
 */
#ifndef CNOISE_CLI_GUARD_H
#define CNOISE_CLI_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "cn_image.h"

#define CLI_GUARD_SLOTS 8
#define CLI_GUARD_PATH_MAX 4096 /* bytes of a path, including the terminator */

/* Blocks the signals above in the calling thread until cli_guard_unblock().
 * Calls nest: only the outermost unblock restores the previous mask. */
void cli_guard_block(void);
void cli_guard_unblock(void);

/*
 * Registers path (copied) for removal on a fatal signal. Returns a handle >= 0 for
 * cli_guard_remove(), or -1 if path is NULL, longer than CLI_GUARD_PATH_MAX - 1 bytes, or every
 * slot is taken (the file is then simply not guarded; the command still works).
 */
int cli_guard_add(const char *path);

/* Forgets a registered path (after commit or abort). -1 and unknown handles are ignored. */
void cli_guard_remove(int handle);

struct cn_image_writer;

/*
 * cn_image_begin() with the new writer's temporary file registered, the signals held in between
 * (no signal finds the file unregistered). *handle: the guard's handle (-1 on failure). Returns
 * cn_image_begin's result; on failure err holds the reason.
 */
int cli_guard_begin(struct cn_image_writer **w, int *handle, const char *path, cn_image_format format,
                    uint32_t width, uint32_t height, uint32_t depth, char *err, size_t errlen);

#endif /* CNOISE_CLI_GUARD_H */
