/*
 * recipe.c -- reading and writing recipe files (libyaml) and raw-file sidecars (jansson)
 * (recipe.h). A build without libyaml (CMake option CNOISE_WITH_RECIPES off) or without jansson
 * (CNOISE_WITH_SIDECARS off) refuses those files with a message naming the option, at the end.
 */
#define _POSIX_C_SOURCE 200809L

#include "recipe.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if CN_CLI_WITH_RECIPES
#include <yaml.h>
#endif
#if CN_CLI_WITH_SIDECARS
#include <jansson.h>
#endif
#ifndef O_CLOEXEC /* Windows: no descriptors are inherited by a program this one never starts */
#define O_CLOEXEC 0
#endif
#ifndef O_NONBLOCK /* Windows: no FIFOs to block on */
#define O_NONBLOCK 0
#endif
#ifndef O_BINARY /* Windows: the bytes as they are, not text mode's */
#define O_BINARY 0
#endif

#include "args.h"
#include "cnoise.h"

#if CN_CLI_WITH_RECIPES
/* --- memory that lives until exit ---------------------------------------------------------------- */

static void **kept;
static size_t nkept, capkept;

static void free_kept(void)
{
    for (size_t i = 0; i < nkept; i++)
        free(kept[i]);
    free(kept);
    kept = NULL;
    nkept = capkept = 0;
}

/* malloc(n), remembered and freed at exit; NULL when out of memory. */
static void *keep_alloc(size_t n)
{
    if (nkept == capkept) {
        if (capkept == 0 && atexit(free_kept) != 0)
            return NULL;
        size_t cap = capkept ? 2 * capkept : 64;
        void **k = (void **)realloc(kept, cap * sizeof *k);
        if (!k)
            return NULL;
        kept = k;
        capkept = cap;
    }
    void *p = malloc(n ? n : 1);
    if (p)
        kept[nkept++] = p;
    return p;
}

static char *keep_text(const unsigned char *s, size_t len)
{
    char *c = (char *)keep_alloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

/* --- reading ------------------------------------------------------------------------------------- */

typedef struct reader {
    const char *shown; /* the path, escaped */
    char *err;
    size_t errlen;
    cli_recipe *r;
} reader;

static int bad(reader *rd, int line, const char *fmt, ...)
#if defined(__MINGW32__) /* mingw-w64: the C99 formats of its own printf (__USE_MINGW_ANSI_STDIO) */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "FILE:LINE: message" (LINE 0: "FILE: message") into rd->err; returns -1. */
static int bad(reader *rd, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(rd->err, rd->errlen, "%s:%d: %s", rd->shown, line, msg);
    else
        snprintf(rd->err, rd->errlen, "%s: %s", rd->shown, msg);
    return -1;
}

/* The whole file, if it is a regular file of at most CLI_RECIPE_MAX_BYTES. */
static unsigned char *slurp(reader *rd, const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_BINARY);
    if (fd < 0) {
        bad(rd, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    unsigned char *buf = NULL;
    if (fstat(fd, &st) != 0) {
        bad(rd, 0, "cannot read: %s", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        bad(rd, 0, "not a regular file");
    } else if ((unsigned long long)st.st_size > CLI_RECIPE_MAX_BYTES) {
        bad(rd, 0, "%llu bytes: a recipe is at most %u bytes", (unsigned long long)st.st_size,
            (unsigned)CLI_RECIPE_MAX_BYTES);
    } else if (!(buf = (unsigned char *)malloc((size_t)st.st_size + 1))) {
        bad(rd, 0, "out of memory");
    } else {
        /* read up to the limit plus one byte: a file that grew meanwhile is refused */
        size_t got = 0;
        for (;;) {
            ssize_t k = read(fd, buf + got, (size_t)st.st_size + 1 - got);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0) {
                bad(rd, 0, "cannot read: %s", strerror(errno));
                free(buf);
                buf = NULL;
                break;
            }
            if (k == 0)
                break;
            got += (size_t)k;
            if (got > (size_t)st.st_size) {
                bad(rd, 0, "the file changed while it was read");
                free(buf);
                buf = NULL;
                break;
            }
        }
        *len = got;
    }
    close(fd);
    return buf;
}

static int line_of(const yaml_event_t *ev) { return (int)ev->start_mark.line + 1; }

/* A scalar's text, kept; NULL after an error (a NUL byte, an anchor or tag, out of memory). */
static const char *scalar_text(reader *rd, const yaml_event_t *ev)
{
    if (ev->data.scalar.anchor || (ev->data.scalar.tag && !ev->data.scalar.plain_implicit &&
                                   !ev->data.scalar.quoted_implicit)) {
        bad(rd, line_of(ev), "anchors and tags are not allowed in a recipe");
        return NULL;
    }
    const size_t len = ev->data.scalar.length;
    if (memchr(ev->data.scalar.value, '\0', len)) {
        bad(rd, line_of(ev), "a value holds a NUL character");
        return NULL;
    }
    const char *t = keep_text(ev->data.scalar.value, len);
    if (!t)
        bad(rd, line_of(ev), "out of memory");
    return t;
}

/* What an event is, for messages. */
static const char *event_name(yaml_event_type_t t)
{
    switch (t) {
    case YAML_MAPPING_START_EVENT: return "a mapping (key: value lines)";
    case YAML_SEQUENCE_START_EVENT: return "a list";
    case YAML_ALIAS_EVENT: return "an alias (*name)";
    case YAML_SCALAR_EVENT: return "a value";
    default: return "something else";
    }
}

/* The next event into ev (delete it after use). 0, or -1 after a YAML error. */
static int next_event(reader *rd, yaml_parser_t *ps, yaml_event_t *ev)
{
    if (yaml_parser_parse(ps, ev))
        return 0;
    const int line = (int)ps->problem_mark.line + 1;
    if (ps->error == YAML_MEMORY_ERROR)
        return bad(rd, 0, "out of memory");
    if (ps->error == YAML_READER_ERROR)
        return bad(rd, 0, "%s (a recipe is UTF-8 text)", ps->problem ? ps->problem : "cannot read");
    return bad(rd, line, "YAML syntax error: %s%s%s", ps->problem ? ps->problem : "unknown",
               ps->context ? " " : "", ps->context ? ps->context : "");
}

/* The value of the key read last, into e. 0 or -1. */
static int read_value(reader *rd, yaml_parser_t *ps, cli_recipe_entry *e)
{
    yaml_event_t ev;
    if (next_event(rd, ps, &ev) != 0)
        return -1;
    int rc = 0;
    if (ev.type == YAML_SCALAR_EVENT) {
        const char **v = (const char **)keep_alloc(sizeof *v);
        int *l = (int *)keep_alloc(sizeof *l);
        if (!v || !l)
            rc = bad(rd, line_of(&ev), "out of memory");
        else if (!(v[0] = scalar_text(rd, &ev)))
            rc = -1;
        l ? (void)(l[0] = line_of(&ev)) : (void)0;
        e->values = v;
        e->lines = l;
        e->nvalues = 1;
    } else if (ev.type == YAML_SEQUENCE_START_EVENT) {
        const char **v = (const char **)keep_alloc(CLI_RECIPE_MAX_ITEMS * sizeof *v);
        int *l = (int *)keep_alloc(CLI_RECIPE_MAX_ITEMS * sizeof *l);
        e->values = v;
        e->lines = l;
        e->is_list = 1;
        if (!v || !l || ev.data.sequence_start.anchor)
            rc = !v || !l ? bad(rd, line_of(&ev), "out of memory")
                          : bad(rd, line_of(&ev), "anchors and tags are not allowed in a recipe");
        while (rc == 0) {
            yaml_event_t it;
            if (next_event(rd, ps, &it) != 0) {
                rc = -1;
                break;
            }
            if (it.type == YAML_SEQUENCE_END_EVENT) {
                yaml_event_delete(&it);
                break;
            }
            if (it.type != YAML_SCALAR_EVENT)
                rc = bad(rd, line_of(&it), "%s: a list in a recipe holds plain values, not %s", e->key,
                         event_name(it.type));
            else if (e->nvalues == CLI_RECIPE_MAX_ITEMS)
                rc = bad(rd, line_of(&it), "%s: more than %d values", e->key, CLI_RECIPE_MAX_ITEMS);
            else if (!(v[e->nvalues] = scalar_text(rd, &it)))
                rc = -1;
            else
                l[e->nvalues++] = line_of(&it);
            yaml_event_delete(&it);
        }
    } else {
        rc = bad(rd, line_of(&ev), "%s: the value is %s; a recipe takes a value (or, for layer, a list of values)",
                 e->key, event_name(ev.type));
    }
    yaml_event_delete(&ev);
    return rc;
}

/* The top-level mapping's pairs, after its start event. 0 or -1. */
static int read_pairs(reader *rd, yaml_parser_t *ps)
{
    cli_recipe *r = rd->r;
    for (;;) {
        yaml_event_t ev;
        if (next_event(rd, ps, &ev) != 0)
            return -1;
        if (ev.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        int rc = 0;
        const int line = line_of(&ev);
        const char *key = NULL;
        if (ev.type != YAML_SCALAR_EVENT)
            rc = bad(rd, line, "a key must be a name, not %s", event_name(ev.type));
        else if (!(key = scalar_text(rd, &ev)))
            rc = -1;
        yaml_event_delete(&ev);
        if (rc != 0)
            return -1;
        for (int k = 0; k < r->n; k++)
            if (strcmp(r->entry[k].key, key) == 0) {
                char q[96];
                return bad(rd, line, "%s is given twice (first on line %d)", cli_quote(key, q, sizeof q),
                           r->entry[k].line);
            }
        if (r->n == CLI_RECIPE_MAX_ENTRIES)
            return bad(rd, line, "more than %d keys", CLI_RECIPE_MAX_ENTRIES);
        cli_recipe_entry *e = &r->entry[r->n++];
        memset(e, 0, sizeof *e);
        e->key = key;
        e->line = line;
        if (read_value(rd, ps, e) != 0)
            return -1;
    }
}

/* The whole stream: one document holding one mapping. 0 or -1. */
static int read_stream(reader *rd, yaml_parser_t *ps)
{
    yaml_event_t ev;
    int rc = 0, stage = 0; /* 0 stream start, 1 document start, 2 mapping, 3 document end, 4 stream end */
    while (rc == 0 && stage < 5) {
        if (next_event(rd, ps, &ev) != 0)
            return -1;
        const int line = line_of(&ev);
        switch (stage) {
        case 0:
            stage = 1; /* STREAM-START always comes first */
            break;
        case 1:
            if (ev.type == YAML_STREAM_END_EVENT)
                rc = bad(rd, 0, "the recipe is empty");
            else if (!ev.data.document_start.implicit && ev.data.document_start.version_directive)
                rc = bad(rd, line, "YAML directives are not allowed in a recipe");
            stage = 2;
            break;
        case 2:
            if (ev.type == YAML_MAPPING_START_EVENT && !ev.data.mapping_start.anchor)
                rc = read_pairs(rd, ps);
            else if (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.length == 0)
                rc = bad(rd, 0, "the recipe is empty");
            else
                rc = bad(rd, line, "a recipe is 'key: value' lines (a YAML mapping), not %s", event_name(ev.type));
            stage = 3;
            break;
        case 3:
            stage = 4; /* DOCUMENT-END */
            break;
        default:
            if (ev.type != YAML_STREAM_END_EVENT)
                rc = bad(rd, line, "a recipe is one YAML document; a second one starts here");
            stage = 5;
            break;
        }
        yaml_event_delete(&ev);
    }
    return rc;
}

int cli_recipe_read(const char *path, cli_recipe *r, char *err, size_t errlen)
{
    char shown[CLI_SHOWN_SIZE];
    reader rd = {cli_shown(path, shown, sizeof shown), err, errlen, r};
    memset(r, 0, sizeof *r);
    r->entry = (cli_recipe_entry *)keep_alloc(CLI_RECIPE_MAX_ENTRIES * sizeof *r->entry);
    if (!r->entry)
        return bad(&rd, 0, "out of memory");
    size_t len = 0;
    unsigned char *text = slurp(&rd, path, &len);
    if (!text)
        return -1;
    yaml_parser_t ps;
    if (!yaml_parser_initialize(&ps)) {
        free(text);
        return bad(&rd, 0, "out of memory");
    }
    yaml_parser_set_input_string(&ps, text, len);
    yaml_parser_set_encoding(&ps, YAML_UTF8_ENCODING);
    int rc = read_stream(&rd, &ps);
    yaml_parser_delete(&ps);
    free(text);
    /* the two keys about the recipe itself */
    for (int k = 0; rc == 0 && k < r->n; k++) {
        const cli_recipe_entry *e = &r->entry[k];
        if (strcmp(e->key, "cnoise-recipe") == 0 && (e->is_list || strcmp(e->values[0], CLI_RECIPE_FORMAT) != 0)) {
            char q[64];
            rc = bad(&rd, e->line, "cnoise-recipe: %s is not a recipe format this cnoise reads (%s)",
                     e->is_list ? "a list" : cli_quote(e->values[0], q, sizeof q), CLI_RECIPE_FORMAT);
        } else if (strcmp(e->key, "command") == 0) {
            if (e->is_list)
                rc = bad(&rd, e->line, "command: a command name, not a list");
            r->command = e->values[0];
            r->command_line = e->line;
        }
    }
    return rc;
}

/* --- writing ------------------------------------------------------------------------------------- */

typedef struct membuf {
    char *p;
    size_t len, cap;
    int oom;
} membuf;

static int put(void *data, unsigned char *buffer, size_t size)
{
    membuf *m = (membuf *)data;
    if (m->len + size + 1 > m->cap) {
        size_t cap = m->cap ? m->cap : 1024;
        while (cap < m->len + size + 1)
            cap *= 2;
        char *q = (char *)realloc(m->p, cap);
        if (!q) {
            m->oom = 1;
            return 0;
        }
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->len, buffer, size);
    m->len += size;
    m->p[m->len] = '\0';
    return 1;
}

static int emit_scalar(yaml_emitter_t *em, const char *s)
{
    yaml_event_t ev;
    return yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)(uintptr_t)s, (int)strlen(s), 1, 1,
                                        YAML_ANY_SCALAR_STYLE) &&
           yaml_emitter_emit(em, &ev);
}

static int emit_pairs(yaml_emitter_t *em, const char *command, const cli_recipe_entry *e, int n)
{
    yaml_event_t ev;
    int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && yaml_emitter_emit(em, &ev) &&
             yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) && yaml_emitter_emit(em, &ev) &&
             yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) &&
             yaml_emitter_emit(em, &ev) && emit_scalar(em, "cnoise-recipe") && emit_scalar(em, CLI_RECIPE_FORMAT) &&
             emit_scalar(em, "command") && emit_scalar(em, command);
    for (int k = 0; ok && k < n; k++) {
        ok = emit_scalar(em, e[k].key);
        if (ok && e[k].is_list) {
            ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE) &&
                 yaml_emitter_emit(em, &ev);
            for (int i = 0; ok && i < e[k].nvalues; i++)
                ok = emit_scalar(em, e[k].values[i]);
            ok = ok && yaml_sequence_end_event_initialize(&ev) && yaml_emitter_emit(em, &ev);
        } else if (ok) {
            ok = emit_scalar(em, e[k].values[0]);
        }
    }
    return ok && yaml_mapping_end_event_initialize(&ev) && yaml_emitter_emit(em, &ev) &&
           yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(em, &ev) &&
           yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(em, &ev) && yaml_emitter_flush(em);
}

char *cli_recipe_text(const char *command, const cli_recipe_entry *e, int n, size_t *len, char *err,
                      size_t errlen)
{
    membuf m = {NULL, 0, 0, 0};
    char head[160];
    const int hl = snprintf(head, sizeof head,
                            "# cnoise recipe (cnoise %s): 'cnoise %s --recipe FILE' renders it again;\n"
                            "# options given on the command line override it.\n",
                            cn_version(), command);
    put(&m, (unsigned char *)head, (size_t)hl);
    yaml_emitter_t em;
    if (!yaml_emitter_initialize(&em)) {
        free(m.p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    yaml_emitter_set_output(&em, put, &m);
    yaml_emitter_set_unicode(&em, 1);
    yaml_emitter_set_width(&em, -1); /* no folding of long values */
    const int ok = emit_pairs(&em, command, e, n);
    if (!ok || m.oom) {
        snprintf(err, errlen, "%s", m.oom || em.error == YAML_MEMORY_ERROR ? "out of memory"
                                    : em.problem                           ? em.problem
                                                                           : "cannot write the recipe");
        yaml_emitter_delete(&em);
        free(m.p);
        return NULL;
    }
    yaml_emitter_delete(&em);
    *len = m.len;
    return m.p;
}

#endif /* CN_CLI_WITH_RECIPES */

/* --- the sidecar --------------------------------------------------------------------------------- */

#if CN_CLI_WITH_SIDECARS
/* set(o, key, v) that consumes v and fails on NULL. */
static int set(json_t *o, const char *key, json_t *v) { return v && json_object_set_new(o, key, v) == 0; }

static json_t *real_or_null(double v) { return isfinite(v) ? json_real(v) : json_null(); }

char *cli_sidecar_text(const cli_sidecar_info *info, const char *command, const cli_recipe_entry *e, int n,
                       char *err, size_t errlen)
{
    json_t *root = json_object();
    int ok = root && set(root, "file_format", json_string(info->format)) &&
             set(root, "sample_type", json_string(info->sample_type)) &&
             set(root, "byte_order", json_string("little-endian")) && set(root, "width", json_integer(info->width)) &&
             set(root, "height", json_integer(info->height));
    if (ok && info->depth)
        ok = set(root, "depth", json_integer(info->depth));
    ok = ok && set(root, "header_bytes", json_integer(0)) && set(root, "layout", json_string(info->layout)) &&
         set(root, "value_range", json_pack("[o,o]", real_or_null(info->range[0]), real_or_null(info->range[1]))) &&
         set(root, "encoding", json_string(info->encoding));
    if (ok && info->have_minmax)
        ok = set(root, "min", real_or_null(info->min)) && set(root, "max", real_or_null(info->max));
    /* json_object_set_new consumes the value whether it succeeds or not */
    json_t *opts = json_object(), *conf = json_object();
    for (int k = 0; ok && opts && k < n; k++) {
        json_t *v;
        if (e[k].is_list) {
            v = json_array();
            for (int i = 0; v && i < e[k].nvalues; i++)
                if (json_array_append_new(v, json_string(e[k].values[i])) != 0) {
                    json_decref(v);
                    v = NULL;
                }
        } else {
            v = json_string(e[k].values[0]);
        }
        ok = set(opts, e[k].key, v);
    }
    if (conf && opts) {
        ok = ok && set(conf, "command", json_string(command)) && set(conf, "cnoise_version", json_string(cn_version()));
        ok = json_object_set_new(conf, "options", opts) == 0 && ok;
        opts = NULL;
    }
    if (root && conf) {
        ok = json_object_set_new(root, "configuration", conf) == 0 && ok;
        conf = NULL;
    }
    ok = ok && root && !opts && !conf;
    json_decref(opts);
    json_decref(conf);
    char *text = ok ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(root);
    if (!text) {
        snprintf(err, errlen, "cannot describe the file in JSON (out of memory, or an option value that is not UTF-8)");
        return NULL;
    }
    /* json_dumps allocates with jansson's allocator (malloc by default); copied with a newline */
    const size_t len = strlen(text);
    char *out = (char *)malloc(len + 2);
    if (out) {
        memcpy(out, text, len);
        out[len] = '\n';
        out[len + 1] = '\0';
    } else {
        snprintf(err, errlen, "out of memory");
    }
    free(text);
    return out;
}
#endif /* CN_CLI_WITH_SIDECARS */

/* --- a build without them -------------------------------------------------------------------------- */

#if !CN_CLI_WITH_RECIPES
int cli_recipe_read(const char *path, cli_recipe *r, char *err, size_t errlen)
{
    char shown[CLI_SHOWN_SIZE];
    memset(r, 0, sizeof *r);
    snprintf(err, errlen, "%s: %s", cli_shown(path, shown, sizeof shown), CLI_NO_RECIPES);
    return -1;
}

char *cli_recipe_text(const char *command, const cli_recipe_entry *e, int n, size_t *len, char *err,
                      size_t errlen)
{
    (void)command, (void)e, (void)n, (void)len;
    snprintf(err, errlen, "%s", CLI_NO_RECIPES);
    return NULL;
}
#endif

#if !CN_CLI_WITH_SIDECARS
char *cli_sidecar_text(const cli_sidecar_info *info, const char *command, const cli_recipe_entry *e, int n,
                       char *err, size_t errlen)
{
    (void)info, (void)command, (void)e, (void)n;
    snprintf(err, errlen, "%s", CLI_NO_SIDECARS);
    return NULL;
}
#endif
