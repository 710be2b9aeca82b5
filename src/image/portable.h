/*
 * portable.h -- internal: the operating-system calls of the image writers and the tool that POSIX
 * and Windows (mingw-w64) spell differently, in one place. On POSIX systems each is the POSIX call
 * itself; on Windows the nearest equivalent, as said per function. (The other _WIN32 tests in
 * src/image and cli/ are where the systems differ in kind: signals, permission bits, O_TMPFILE.)
 */
#ifndef CN_IMAGE_PORTABLE_H
#define CN_IMAGE_PORTABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#else
#include <sys/types.h>
#include <unistd.h>
#endif

/* Online processor cores, at least 1 (the PNG writer's default threads, `cnoise info`'s cores).
 * Not the library's cn__cpu_count (src/threads.c), which the image library does not link; on
 * Windows that one counts the process's affinity mask, this one every active processor. */
static inline long cn__online_cpus(void)
{
#ifdef _WIN32
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? (long)n : 1;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
#endif
}

#ifdef _WIN32
/* The largest count one _write/_read takes (an unsigned int); longer transfers loop. */
#define CN__IO_CHUNK ((size_t)1 << 30)

/* Reads or writes n bytes at off and puts the descriptor's position back where it was, as
 * pread/pwrite leave it (the descriptor is used by one thread at a time: outfile.c). */
static inline int64_t cn__win_pio(int fd, void *p, size_t n, uint64_t off, int writing)
{
    const int64_t pos = _lseeki64(fd, 0, SEEK_CUR);
    if (pos < 0 || off > (uint64_t)INT64_MAX || _lseeki64(fd, (int64_t)off, SEEK_SET) < 0)
        return -1;
    const unsigned chunk = (unsigned)(n < CN__IO_CHUNK ? n : CN__IO_CHUNK);
    const int k = writing ? _write(fd, p, chunk) : _read(fd, p, chunk);
    const int e = errno;
    if (_lseeki64(fd, pos, SEEK_SET) < 0)
        return -1;
    errno = e;
    return k;
}
#endif

/* pwrite(2): up to n bytes at byte offset off, the descriptor's position unchanged; the count
 * written or -1 (errno). */
static inline int64_t cn__pwrite(int fd, const void *p, size_t n, uint64_t off)
{
#ifdef _WIN32
    return cn__win_pio(fd, (void *)p, n, off, 1);
#else
    return pwrite(fd, p, n, (off_t)off);
#endif
}

/* pread(2), likewise. */
static inline int64_t cn__pread(int fd, void *p, size_t n, uint64_t off)
{
#ifdef _WIN32
    return cn__win_pio(fd, p, n, off, 0);
#else
    return pread(fd, p, n, (off_t)off);
#endif
}

/* write(2) of up to n bytes at the position (Windows: in binary mode, at most 1 GiB a call). */
static inline int64_t cn__write(int fd, const void *p, size_t n)
{
#ifdef _WIN32
    return _write(fd, p, (unsigned)(n < CN__IO_CHUNK ? n : CN__IO_CHUNK));
#else
    return write(fd, p, n);
#endif
}

/* fsync(2) (Windows: _commit, which flushes the file's buffers to the disk). */
static inline int cn__fsync(int fd)
{
#ifdef _WIN32
    return _commit(fd);
#else
    return fsync(fd);
#endif
}

/* Puts the file from over the file to, atomically where the system allows it: rename(2), which
 * replaces; on Windows MoveFileEx with MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH (C's
 * rename there refuses an existing target). 0, or -1 with errno set. */
static inline int cn__replace(const char *from, const char *to)
{
#ifdef _WIN32
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return 0;
    const DWORD e = GetLastError();
    errno = e == ERROR_ACCESS_DENIED || e == ERROR_SHARING_VIOLATION ? EACCES
            : e == ERROR_PATH_NOT_FOUND || e == ERROR_FILE_NOT_FOUND ? ENOENT
            : e == ERROR_DISK_FULL                                   ? ENOSPC
                                                                     : EIO;
    return -1;
#else
    return rename(from, to);
#endif
}

/* Whether descriptor fd is a terminal (isatty). */
static inline int cn__isatty(int fd)
{
#ifdef _WIN32
    return _isatty(fd) != 0;
#else
    return isatty(fd) != 0;
#endif
}

#endif /* CN_IMAGE_PORTABLE_H */
