/*
 * _cnoise.c -- the CPython binding of libcnoise: numpy arrays over the C batch API.
 *
 * This module is the only place where Python objects meet the library. It is deliberately thin:
 *   - a configuration arrives as a dict of cn_config fields (cnoise/__init__.py turns keyword
 *     arguments into it) and is validated by the library (cn_config_explain), whose report
 *     becomes a cnoise.ConfigError naming the parameter;
 *   - a Generator owns one built cn_noise (plain read-only data, shared by any number of threads);
 *   - every batch call checks the arrays it is given (dtype, C order, alignment, size), then
 *     releases the GIL around the library call and turns a cn_status into an exception.
 * Nothing here knows a library rule (a range, a period constraint, a default): it asks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <cnoise.h>

static PyObject *Error;       /* cnoise.Error(ValueError): a cn_status other than CN_OK */
static PyObject *ConfigError; /* cnoise.ConfigError(Error): a configuration the library refuses */

/* The Python keyword of each cn_field (the cn_config field names). */
static const char *field_name(cn_field f)
{
    switch (f) {
    case CN_FIELD_TYPE: return "type";
    case CN_FIELD_MODE: return "mode";
    case CN_FIELD_DIMS: return "dims";
    case CN_FIELD_FREQUENCY: return "frequency";
    case CN_FIELD_AXIS_FREQUENCY: return "axis_frequency";
    case CN_FIELD_OFFSET: return "offset";
    case CN_FIELD_ROTATION: return "rotation";
    case CN_FIELD_FRACTAL: return "fractal";
    case CN_FIELD_OCTAVES: return "octaves";
    case CN_FIELD_LACUNARITY: return "lacunarity";
    case CN_FIELD_GAIN: return "gain";
    case CN_FIELD_RIDGE_OFFSET: return "ridge_offset";
    case CN_FIELD_RIDGE_GAIN: return "ridge_gain";
    case CN_FIELD_PERIOD: return "period";
    case CN_FIELD_AMPLITUDE: return "amplitude";
    case CN_FIELD_BIAS: return "bias";
    case CN_FIELD_CELL_DISTANCE: return "cell_distance";
    case CN_FIELD_CELL_RETURN: return "cell_return";
    case CN_FIELD_JITTER: return "jitter";
    case CN_FIELD_WEIGHTED_STRENGTH: return "weighted_strength";
    case CN_FIELD_PINGPONG_STRENGTH: return "pingpong_strength";
    case CN_FIELD_MINKOWSKI_P: return "minkowski_p";
    case CN_FIELD_NONE: break;
    }
    return NULL;
}

/* Raises `type` (Error or ConfigError) with message "<param>: <reason> (<cn_strerror>)" and the
 * attributes status, strerror, field, field2, axis and reason. */
static void raise_status(PyObject *type, cn_status st, const char *param, const char *param2, int axis,
                         const char *reason)
{
    const char *text = cn_strerror(st);
    PyObject *msg;
    if (reason && *reason)
        msg = PyUnicode_FromFormat("%s: %s (%s)", param ? param : "cnoise", reason, text);
    else
        msg = PyUnicode_FromFormat("%s: %s", param ? param : "cnoise", text);
    if (!msg)
        return;
    PyObject *exc = PyObject_CallOneArg(type, msg);
    Py_DECREF(msg);
    if (!exc)
        return;
    PyObject *v;
    int bad = 0;
#define SET(name, expr)                                                                                  \
    v = (expr);                                                                                          \
    bad |= !v || PyObject_SetAttrString(exc, name, v) < 0;                                               \
    Py_XDECREF(v);
    SET("status", PyLong_FromLong((long)st));
    SET("strerror", PyUnicode_FromString(text));
    SET("field", param ? PyUnicode_FromString(param) : Py_NewRef(Py_None));
    SET("field2", param2 ? PyUnicode_FromString(param2) : Py_NewRef(Py_None));
    SET("axis", axis >= 0 ? PyLong_FromLong(axis) : Py_NewRef(Py_None));
    SET("reason", PyUnicode_FromString(reason ? reason : ""));
#undef SET
    if (bad) {
        Py_DECREF(exc);
        return;
    }
    PyErr_SetObject(type, exc);
    Py_DECREF(exc);
}

static void raise_check(const cn_check *chk)
{
    raise_status(ConfigError, chk->status, field_name(chk->field), field_name(chk->field2), chk->axis,
                 chk->reason);
}

/* A batch call's status as an exception: the parameter it concerns, where there is one. */
static void raise_eval(cn_status st, const char *call)
{
    char where[96];
    const char *param = call;
    if (st == CN_E_THREADS)
        param = "threads";
    else if (st == CN_E_OVERLAP)
        param = "out";
    snprintf(where, sizeof where, "%s", param);
    if (st == CN_E_OVERFLOW) {
        PyErr_Format(PyExc_MemoryError, "%s: %s", call, cn_strerror(st));
        return;
    }
    raise_status(Error, st, where, NULL, -1, NULL);
}

/* ---- configuration dict <-> cn_config ---------------------------------------------------- */

/* An int field: values beyond the C int range are clamped to it, so that the library's own check
 * refuses them with its own message. */
static int get_int(PyObject *v, const char *key, int *out)
{
    PyObject *i = PyNumber_Index(v);
    if (!i) {
        PyErr_Format(PyExc_TypeError, "%s: expected an integer, got %.80s", key, Py_TYPE(v)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (x == -1 && PyErr_Occurred())
        return -1;
    if (overflow > 0 || x > INT_MAX)
        x = INT_MAX;
    else if (overflow < 0 || x < INT_MIN)
        x = INT_MIN;
    *out = (int)x;
    return 0;
}

static int get_double(PyObject *v, const char *key, double *out)
{
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected a number, got %.80s", key, Py_TYPE(v)->tp_name);
        } else if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s: %R is too large for a double", key, v);
        }
        return -1;
    }
    *out = x;
    return 0;
}

/* A 64-bit seed: any integer in -2^63 .. 2^64-1; a negative -n is 2^64 - n (the signed bits). */
static int get_seed(PyObject *v, uint64_t *out)
{
    PyObject *i = PyNumber_Index(v);
    if (!i) {
        PyErr_Format(PyExc_TypeError, "seed: expected an integer, got %.80s", Py_TYPE(v)->tp_name);
        return -1;
    }
    unsigned long long u = PyLong_AsUnsignedLongLong(i);
    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        long long s = PyLong_AsLongLong(i);
        if (s == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_DECREF(i);
            PyErr_Format(PyExc_ValueError, "seed: %R is outside -2**63 .. 2**64-1", v);
            return -1;
        }
        u = (unsigned long long)s; /* two's complement: -n -> 2^64 - n */
    }
    Py_DECREF(i);
    *out = (uint64_t)u;
    return 0;
}

/* A per-axis list: a sequence of at most `max` numbers written from entry 0; the rest untouched. */
static int get_seq(PyObject *v, const char *key, Py_ssize_t max, double *dout, uint32_t *uout)
{
    PyObject *seq = PySequence_Fast(v, "expected a sequence");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a sequence of numbers, got %.80s", key, Py_TYPE(v)->tp_name);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: %zd entries, at most %zd", key, n, max);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *e = PySequence_Fast_GET_ITEM(seq, k);
        if (dout) {
            if (get_double(e, key, &dout[k]) < 0)
                goto fail;
        } else {
            PyObject *i = PyNumber_Index(e);
            if (!i) {
                PyErr_Format(PyExc_TypeError, "%s: expected whole numbers, got %.80s", key, Py_TYPE(e)->tp_name);
                goto fail;
            }
            PyObject *zero = PyLong_FromLong(0);
            int neg = zero ? PyObject_RichCompareBool(i, zero, Py_LT) : -1;
            Py_XDECREF(zero);
            if (neg < 0) {
                Py_DECREF(i);
                goto fail;
            }
            unsigned long long u = neg ? 0 : PyLong_AsUnsignedLongLong(i);
            if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                u = UINT32_MAX; /* too large: the library refuses it with its own message */
            }
            Py_DECREF(i);
            if (neg) {
                PyErr_Format(PyExc_ValueError, "%s: %R (axis %zd) is negative; 0 means not periodic", key, e, k);
                goto fail;
            }
            uout[k] = u > UINT32_MAX ? UINT32_MAX : (uint32_t)u;
        }
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    return -1;
}

typedef enum { NAME_TYPE, NAME_MODE, NAME_FRACTAL, NAME_CELL_DISTANCE, NAME_CELL_RETURN } name_kind;

static const char *kind_name(name_kind k, int value)
{
    switch (k) {
    case NAME_TYPE: return cn_noise_type_name((cn_noise_type)value);
    case NAME_MODE: return cn_mode_name((cn_mode)value);
    case NAME_FRACTAL: return cn_fractal_name((cn_fractal)value);
    case NAME_CELL_DISTANCE: return cn_cell_distance_name((cn_cell_distance)value);
    case NAME_CELL_RETURN: return cn_cell_return_name((cn_cell_return)value);
    }
    return NULL;
}

/* The names the library gives, as a list: the values 0, 1, ... up to the first NULL. */
static PyObject *names_list(name_kind k)
{
    PyObject *list = PyList_New(0);
    for (int v = 0; list; v++) {
        const char *name = kind_name(k, v);
        if (!name)
            break;
        PyObject *s = PyUnicode_FromString(name);
        if (!s || PyList_Append(list, s) < 0) {
            Py_XDECREF(s);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(s);
    }
    return list;
}

static int get_name(PyObject *v, const char *key, name_kind k, int *out)
{
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a name (str), got %.80s", key, Py_TYPE(v)->tp_name);
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(v);
    if (!s)
        return -1;
    cn_status st;
    if (k == NAME_TYPE) {
        cn_noise_type t;
        st = cn_noise_type_from_name(s, &t);
        *out = (int)t;
    } else if (k == NAME_MODE) {
        cn_mode m;
        st = cn_mode_from_name(s, &m);
        *out = (int)m;
    } else if (k == NAME_CELL_DISTANCE) {
        cn_cell_distance d;
        st = cn_cell_distance_from_name(s, &d);
        *out = (int)d;
    } else if (k == NAME_CELL_RETURN) {
        cn_cell_return r;
        st = cn_cell_return_from_name(s, &r);
        *out = (int)r;
    } else {
        cn_fractal f;
        st = cn_fractal_from_name(s, &f);
        *out = (int)f;
    }
    if (st == CN_OK)
        return 0;
    PyObject *names = names_list(k);
    PyObject *joined = NULL, *sep = PyUnicode_FromString(", ");
    if (names && sep)
        joined = PyUnicode_Join(sep, names);
    Py_XDECREF(names);
    Py_XDECREF(sep);
    if (!joined)
        return -1;
    PyObject *reason = PyUnicode_FromFormat("%R is not one of %U", v, joined);
    Py_DECREF(joined);
    if (!reason)
        return -1;
    const char *r = PyUnicode_AsUTF8(reason);
    if (r)
        raise_status(ConfigError, st, key, NULL, -1, r);
    Py_DECREF(reason);
    return -1;
}

/* Fills *cfg (already initialised) from a dict of cn_config fields. */
static int config_from_dict(PyObject *d, cn_config *cfg)
{
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "configuration: expected a dict of cn_config fields");
        return -1;
    }
    PyObject *key, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &key, &v)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!k) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "configuration: keys must be str");
            return -1;
        }
        int rc, tmp;
        if (!strcmp(k, "type")) {
            rc = get_name(v, k, NAME_TYPE, &tmp);
            cfg->type = (cn_noise_type)tmp;
        } else if (!strcmp(k, "mode")) {
            rc = get_name(v, k, NAME_MODE, &tmp);
            cfg->mode = (cn_mode)tmp;
        } else if (!strcmp(k, "fractal")) {
            rc = get_name(v, k, NAME_FRACTAL, &tmp);
            cfg->fractal = (cn_fractal)tmp;
        } else if (!strcmp(k, "cell_distance")) {
            rc = get_name(v, k, NAME_CELL_DISTANCE, &tmp);
            cfg->cell_distance = (cn_cell_distance)tmp;
        } else if (!strcmp(k, "cell_return")) {
            rc = get_name(v, k, NAME_CELL_RETURN, &tmp);
            cfg->cell_return = (cn_cell_return)tmp;
        } else if (!strcmp(k, "dims"))
            rc = get_int(v, k, &cfg->dims);
        else if (!strcmp(k, "octaves"))
            rc = get_int(v, k, &cfg->octaves);
        else if (!strcmp(k, "seed"))
            rc = get_seed(v, &cfg->seed);
        else if (!strcmp(k, "frequency"))
            rc = get_double(v, k, &cfg->frequency);
        else if (!strcmp(k, "lacunarity"))
            rc = get_double(v, k, &cfg->lacunarity);
        else if (!strcmp(k, "gain"))
            rc = get_double(v, k, &cfg->gain);
        else if (!strcmp(k, "ridge_offset"))
            rc = get_double(v, k, &cfg->ridge_offset);
        else if (!strcmp(k, "ridge_gain"))
            rc = get_double(v, k, &cfg->ridge_gain);
        else if (!strcmp(k, "amplitude"))
            rc = get_double(v, k, &cfg->amplitude);
        else if (!strcmp(k, "bias"))
            rc = get_double(v, k, &cfg->bias);
        else if (!strcmp(k, "jitter"))
            rc = get_double(v, k, &cfg->jitter);
        else if (!strcmp(k, "minkowski_p"))
            rc = get_double(v, k, &cfg->minkowski_p);
        else if (!strcmp(k, "weighted_strength"))
            rc = get_double(v, k, &cfg->weighted_strength);
        else if (!strcmp(k, "pingpong_strength"))
            rc = get_double(v, k, &cfg->pingpong_strength);
        else if (!strcmp(k, "axis_frequency"))
            rc = get_seq(v, k, 4, cfg->axis_frequency, NULL);
        else if (!strcmp(k, "offset"))
            rc = get_seq(v, k, 4, cfg->offset, NULL);
        else if (!strcmp(k, "rotation"))
            rc = get_seq(v, k, 16, cfg->rotation, NULL);
        else if (!strcmp(k, "period"))
            rc = get_seq(v, k, 4, NULL, cfg->period);
        else if (!strcmp(k, "rotate")) {
            rc = PyObject_IsTrue(v);
            if (rc >= 0) {
                cfg->rotate = rc;
                rc = 0;
            }
        } else {
            PyErr_Format(PyExc_TypeError, "configuration: unknown field %R", key);
            return -1;
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

static PyObject *list_of_doubles(const double *x, int n)
{
    PyObject *l = PyList_New(n);
    for (int k = 0; l && k < n; k++) {
        PyObject *f = PyFloat_FromDouble(x[k]);
        if (!f) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, k, f);
    }
    return l;
}

/* A cn_config as a dict of its fields (enums by their library names): the form in which a
 * generator travels (pickling, Dask) and the input of config_from_dict. */
static PyObject *config_to_dict(const cn_config *c)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    unsigned long long p[4] = {c->period[0], c->period[1], c->period[2], c->period[3]};
    const char *tn = cn_noise_type_name(c->type), *mn = cn_mode_name(c->mode), *fn = cn_fractal_name(c->fractal);
    const char *cd = cn_cell_distance_name(c->cell_distance), *cr = cn_cell_return_name(c->cell_return);
    PyObject *period = Py_BuildValue("[KKKK]", p[0], p[1], p[2], p[3]);
    int bad = !period || !tn || !mn || !fn || !cd || !cr;
#define PUT(name, expr)                                                                                  \
    if (!bad) {                                                                                          \
        PyObject *o_ = (expr);                                                                           \
        bad = !o_ || PyDict_SetItemString(d, name, o_) < 0;                                              \
        Py_XDECREF(o_);                                                                                  \
    }
    PUT("type", PyUnicode_FromString(tn));
    PUT("mode", PyUnicode_FromString(mn));
    PUT("dims", PyLong_FromLong(c->dims));
    PUT("seed", PyLong_FromUnsignedLongLong((unsigned long long)c->seed));
    PUT("frequency", PyFloat_FromDouble(c->frequency));
    PUT("axis_frequency", list_of_doubles(c->axis_frequency, 4));
    PUT("rotate", PyBool_FromLong(c->rotate != 0));
    PUT("rotation", list_of_doubles(c->rotation, 16));
    PUT("offset", list_of_doubles(c->offset, 4));
    PUT("fractal", PyUnicode_FromString(fn));
    PUT("octaves", PyLong_FromLong(c->octaves));
    PUT("lacunarity", PyFloat_FromDouble(c->lacunarity));
    PUT("gain", PyFloat_FromDouble(c->gain));
    PUT("ridge_offset", PyFloat_FromDouble(c->ridge_offset));
    PUT("ridge_gain", PyFloat_FromDouble(c->ridge_gain));
    PUT("weighted_strength", PyFloat_FromDouble(c->weighted_strength));
    PUT("pingpong_strength", PyFloat_FromDouble(c->pingpong_strength));
    PUT("period", Py_NewRef(period));
    PUT("amplitude", PyFloat_FromDouble(c->amplitude));
    PUT("bias", PyFloat_FromDouble(c->bias));
    PUT("cell_distance", PyUnicode_FromString(cd));
    PUT("cell_return", PyUnicode_FromString(cr));
    PUT("jitter", PyFloat_FromDouble(c->jitter));
    PUT("minkowski_p", PyFloat_FromDouble(c->minkowski_p));
#undef PUT
    Py_XDECREF(period);
    if (bad) {
        if (!PyErr_Occurred())
            PyErr_SetString(Error, "configuration holds a value the library has no name for");
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* ---- array checks -------------------------------------------------------------------------- */

/* An output array for the batch calls: an ndarray of float32 or float64 in native byte order,
 * C-contiguous, aligned and writeable. Returns 4 or 8 (the element size), or -1 with TypeError or
 * ValueError naming what is wrong. */
static int check_out(PyObject *o, const char *name)
{
    if (!PyArray_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a numpy.ndarray, got %.80s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    PyArrayObject *a = (PyArrayObject *)o;
    int t = PyArray_TYPE(a);
    if ((t != NPY_FLOAT32 && t != NPY_FLOAT64) || !PyArray_ISNOTSWAPPED(a)) {
        PyErr_Format(PyExc_TypeError, "%s: dtype must be float32 or float64 in native byte order", name);
        return -1;
    }
    if (!PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISALIGNED(a)) {
        PyErr_Format(PyExc_ValueError, "%s: the array must be C-contiguous and aligned "
                     "(numpy.ascontiguousarray gives one; write back with out[...] = result)", name);
        return -1;
    }
    if (!PyArray_ISWRITEABLE(a)) {
        PyErr_Format(PyExc_ValueError, "%s: the array is read-only", name);
        return -1;
    }
    return t == NPY_FLOAT32 ? 4 : 8;
}

/* A tuple of exactly n floats (grid origin and step, one point). */
static int get_doubles(PyObject *t, const char *name, int n, double *out)
{
    PyObject *seq = PySequence_Fast(t, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a sequence of %d numbers", name, n);
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d numbers (one per dimension), got %zd", name, n,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int k = 0; k < n; k++)
        if (get_double(PySequence_Fast_GET_ITEM(seq, k), name, &out[k]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

/* The grid counts of an output array: numpy's last axis is x (the library's count[0]). */
static int grid_counts(PyArrayObject *a, int dims, size_t *count)
{
    if (PyArray_NDIM(a) != dims) {
        PyErr_Format(PyExc_ValueError, "out: a %dD generator needs a %d-dimensional array, got %d dimensions",
                     dims, dims, PyArray_NDIM(a));
        return -1;
    }
    for (int k = 0; k < dims; k++)
        count[k] = (size_t)PyArray_DIM(a, dims - 1 - k);
    return 0;
}

/* dims coordinate arrays for a points call: ndarrays of the output's dtype, C-contiguous, aligned,
 * with as many elements as the output. */
static int get_coords(PyObject *tuple, int dims, PyArrayObject *out, const void **ptrs)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != dims) {
        PyErr_Format(PyExc_ValueError, "coordinates: a %dD generator takes %d coordinate arrays", dims, dims);
        return -1;
    }
    for (int k = 0; k < dims; k++) {
        PyObject *o = PyTuple_GET_ITEM(tuple, k);
        if (!PyArray_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "coordinates: expected numpy arrays");
            return -1;
        }
        PyArrayObject *c = (PyArrayObject *)o;
        if (PyArray_TYPE(c) != PyArray_TYPE(out) || !PyArray_ISNOTSWAPPED(c) || !PyArray_IS_C_CONTIGUOUS(c) ||
            !PyArray_ISALIGNED(c)) {
            PyErr_SetString(PyExc_ValueError, "coordinates: arrays must have the output's dtype and be C-contiguous");
            return -1;
        }
        if (PyArray_SIZE(c) != PyArray_SIZE(out)) {
            PyErr_SetString(PyExc_ValueError, "coordinates: every array must have as many elements as the output");
            return -1;
        }
        ptrs[k] = PyArray_DATA(c);
    }
    return 0;
}

/* ---- Generator ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    cn_noise gen; /* built, then read-only: shared by every thread that evaluates it */
} GenObject;

static PyTypeObject GenType;

static PyObject *Gen_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *d;
    static char *kwlist[] = {"config", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Generator", kwlist, &d))
        return NULL;
    cn_config cfg;
    cn_config_init(&cfg);
    if (config_from_dict(d, &cfg) < 0)
        return NULL;
    cn_check chk;
    if (cn_config_explain(&cfg, &chk) != CN_OK) {
        raise_check(&chk);
        return NULL;
    }
    GenObject *self = (GenObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    cn_status st = cn_noise_build(&self->gen, &cfg);
    if (st != CN_OK) {
        raise_status(ConfigError, st, "configuration", NULL, -1, NULL);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int gen_dims(GenObject *g) { return cn_noise_config(&g->gen)->dims; }

static PyObject *Gen_config(GenObject *self, PyObject *Py_UNUSED(ignored))
{
    return config_to_dict(cn_noise_config(&self->gen));
}

static PyObject *Gen_range(GenObject *self, PyObject *Py_UNUSED(ignored))
{
    double r[2];
    cn_status st = cn_noise_range(&self->gen, r);
    if (st != CN_OK) {
        raise_eval(st, "cn_noise_range");
        return NULL;
    }
    return Py_BuildValue("(dd)", r[0], r[1]);
}

static PyObject *Gen_reach(GenObject *self, PyObject *arg)
{
    double ext[4], reach;
    if (get_doubles(arg, "extent", gen_dims(self), ext) < 0)
        return NULL;
    cn_status st = cn_noise_reach(&self->gen, ext, &reach);
    if (st == CN_E_DOMAIN)
        return PyFloat_FromDouble(reach); /* +inf: such a region gives NaN */
    if (st != CN_OK) {
        raise_status(Error, st, "extent", NULL, -1, NULL);
        return NULL;
    }
    return PyFloat_FromDouble(reach);
}

/* None after a batch call that succeeded, else the exception of its status (raise_eval). */
static PyObject *none_or_raise(cn_status st, const char *what)
{
    if (st != CN_OK) {
        raise_eval(st, what);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The arguments of eval (Noise and Layers): eval(coords: tuple of floats, single: bool), the
 * point in double (p) and, rounded once, in float (pf). 0, or -1 with an exception set. */
static int eval_args(PyObject *args, int dims, double p[4], float pf[4], int *single)
{
    PyObject *coords;
    *single = 0;
    if (!PyArg_ParseTuple(args, "O|p:eval", &coords, single) || get_doubles(coords, "coordinates", dims, p) < 0)
        return -1;
    for (int k = 0; k < dims; k++)
        pf[k] = (float)p[k];
    return 0;
}

/* The arguments of grid (Noise and Layers): grid(origin, step, out, threads); out's shape gives
 * the counts (last axis = x). 0, or -1 with an exception set. */
typedef struct grid_call {
    double origin[4], step[4];
    size_t count[4], len;
    void *data;
    int es; /* out's element size: 4 float32, 8 float64 */
    int threads;
} grid_call;

static int grid_args(PyObject *args, int dims, grid_call *g)
{
    PyObject *o_origin, *o_step, *o_out;
    if (!PyArg_ParseTuple(args, "OOOi:grid", &o_origin, &o_step, &o_out, &g->threads))
        return -1;
    g->es = check_out(o_out, "out");
    if (g->es < 0 || get_doubles(o_origin, "origin", dims, g->origin) < 0 ||
        get_doubles(o_step, "step", dims, g->step) < 0 || grid_counts((PyArrayObject *)o_out, dims, g->count) < 0)
        return -1;
    g->len = (size_t)PyArray_SIZE((PyArrayObject *)o_out);
    g->data = PyArray_DATA((PyArrayObject *)o_out);
    return 0;
}

/* The arrays of points (Noise and Layers): coords (a tuple of arrays of out's dtype, out's
 * size) and out, into ptrs, the count n, out's data and element size es. 0, or -1 with an
 * exception set. */
static int points_args(PyObject *coords, PyObject *o_out, int dims, const void *ptrs[4], size_t *n, void **data,
                       int *es)
{
    *es = check_out(o_out, "out");
    if (*es < 0 || get_coords(coords, dims, (PyArrayObject *)o_out, ptrs) < 0)
        return -1;
    *n = (size_t)PyArray_SIZE((PyArrayObject *)o_out);
    *data = PyArray_DATA((PyArrayObject *)o_out);
    return 0;
}

/* One point: eval(coords: tuple of floats, single: bool) -> float (cn_eval or cn_evalf). */
static PyObject *Gen_eval(GenObject *self, PyObject *args)
{
    double p[4];
    float pf[4];
    int single;
    if (eval_args(args, gen_dims(self), p, pf, &single) < 0)
        return NULL;
    return PyFloat_FromDouble(single ? (double)cn_evalf(&self->gen, pf) : cn_eval(&self->gen, p));
}

/* grid(origin, step, out, threads): fills out (its shape gives the counts, last axis = x). */
static PyObject *Gen_grid(GenObject *self, PyObject *args)
{
    grid_call g;
    if (grid_args(args, gen_dims(self), &g) < 0)
        return NULL;
    const int es = g.es;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (es == 4)
        st = cn_grid_evalf(&self->gen, g.origin, g.step, g.count, (float *)g.data, g.len, g.threads, NULL);
    else
        st = cn_grid_eval(&self->gen, g.origin, g.step, g.count, (double *)g.data, g.len, g.threads, NULL);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, es == 4 ? "cn_grid_evalf" : "cn_grid_eval");
}

/* points(coords: tuple of arrays of out's dtype, out, threads). */
static PyObject *Gen_points(GenObject *self, PyObject *args)
{
    PyObject *coords, *o_out;
    int threads;
    const void *ptrs[4];
    size_t n;
    void *data;
    int es;
    if (!PyArg_ParseTuple(args, "OOi:points", &coords, &o_out, &threads) ||
        points_args(coords, o_out, gen_dims(self), ptrs, &n, &data, &es) < 0)
        return NULL;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (es == 4)
        st = cn_points_evalf(&self->gen, n, (const float *const *)ptrs, (float *)data, threads, NULL);
    else
        st = cn_points_eval(&self->gen, n, (const double *const *)ptrs, (double *)data, threads, NULL);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, es == 4 ? "cn_points_evalf" : "cn_points_eval");
}

/* The gradient array of a call whose values go to out: C-contiguous, writeable, out's dtype,
 * shape (dims,) + out.shape; component a's pointer to ptrs[a]. 0, or -1 with an exception set. */
static int grad_args(PyObject *o_grad, PyArrayObject *out, int dims, void *ptrs[4])
{
    const int es = check_out(o_grad, "grad");
    if (es < 0)
        return -1;
    PyArrayObject *g = (PyArrayObject *)o_grad;
    int ok = PyArray_TYPE(g) == PyArray_TYPE(out) && PyArray_NDIM(g) == PyArray_NDIM(out) + 1 &&
             PyArray_DIM(g, 0) == dims;
    for (int k = 0; ok && k < PyArray_NDIM(out); k++)
        ok = PyArray_DIM(g, k + 1) == PyArray_DIM(out, k);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "grad: needs the values' dtype and shape (%d,) + their shape", dims);
        return -1;
    }
    for (int a = 0; a < dims; a++)
        ptrs[a] = (char *)PyArray_DATA(g) + (size_t)a * (size_t)PyArray_SIZE(out) * (size_t)es;
    return 0;
}

/* The derivatives as a tuple of floats (list_of_doubles' list, as a tuple). */
static PyObject *tuple_of(const double *x, int n)
{
    PyObject *l = list_of_doubles(x, n);
    PyObject *t = l ? PyList_AsTuple(l) : NULL;
    Py_XDECREF(l);
    return t;
}

/* eval_grad(coords, single=False) -> (value, (d/dx, ...)): cn_eval_grad / cn_evalf_grad. */
static PyObject *Gen_eval_grad(GenObject *self, PyObject *args)
{
    double p[4], g[4];
    float pf[4], gf[4];
    int single;
    const int dims = gen_dims(self);
    if (eval_args(args, dims, p, pf, &single) < 0)
        return NULL;
    /* a one-point array (the bits of cn_eval_grad / cn_evalf_grad), for its status */
    double v;
    float vf;
    const double *pc[4] = {&p[0], &p[1], &p[2], &p[3]};
    const float *pcf[4] = {&pf[0], &pf[1], &pf[2], &pf[3]};
    double *gp[4] = {&g[0], &g[1], &g[2], &g[3]};
    float *gpf[4] = {&gf[0], &gf[1], &gf[2], &gf[3]};
    cn_status st = single ? cn_points_evalf_grad(&self->gen, 1, pcf, &vf, gpf, 1)
                          : cn_points_eval_grad(&self->gen, 1, pc, &v, gp, 1);
    if (st != CN_OK) {
        raise_eval(st, single ? "cn_points_evalf_grad" : "cn_points_eval_grad");
        return NULL;
    }
    if (single) {
        v = (double)vf;
        for (int a = 0; a < dims; a++)
            g[a] = (double)gf[a];
    }
    PyObject *t = tuple_of(g, dims);
    return t ? Py_BuildValue("(dN)", v, t) : NULL;
}

/* grid_grad(origin, step, out, grad, threads): cn_grid_eval[f]_grad into out and grad. */
static PyObject *Gen_grid_grad(GenObject *self, PyObject *args)
{
    PyObject *o_origin, *o_step, *o_out, *o_grad;
    grid_call g;
    void *gp[4];
    const int dims = gen_dims(self);
    if (!PyArg_ParseTuple(args, "OOOOi:grid_grad", &o_origin, &o_step, &o_out, &o_grad, &g.threads))
        return NULL;
    PyObject *rest = Py_BuildValue("(OOOi)", o_origin, o_step, o_out, g.threads);
    if (!rest)
        return NULL;
    const int bad = grid_args(rest, dims, &g) < 0 || grad_args(o_grad, (PyArrayObject *)o_out, dims, gp) < 0;
    Py_DECREF(rest);
    if (bad)
        return NULL;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (g.es == 4)
        st = cn_grid_evalf_grad(&self->gen, g.origin, g.step, g.count, (float *)g.data, (float *const *)gp, g.len,
                                g.threads);
    else
        st = cn_grid_eval_grad(&self->gen, g.origin, g.step, g.count, (double *)g.data, (double *const *)gp, g.len,
                               g.threads);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, g.es == 4 ? "cn_grid_evalf_grad" : "cn_grid_eval_grad");
}

/* points_grad(coords, out, grad, threads): cn_points_eval[f]_grad. */
static PyObject *Gen_points_grad(GenObject *self, PyObject *args)
{
    PyObject *coords, *o_out, *o_grad;
    int threads, es;
    const void *ptrs[4];
    void *gp[4], *data;
    size_t n;
    const int dims = gen_dims(self);
    if (!PyArg_ParseTuple(args, "OOOi:points_grad", &coords, &o_out, &o_grad, &threads) ||
        points_args(coords, o_out, dims, ptrs, &n, &data, &es) < 0 ||
        grad_args(o_grad, (PyArrayObject *)o_out, dims, gp) < 0)
        return NULL;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (es == 4)
        st = cn_points_evalf_grad(&self->gen, n, (const float *const *)ptrs, (float *)data, (float *const *)gp,
                                  threads);
    else
        st = cn_points_eval_grad(&self->gen, n, (const double *const *)ptrs, (double *)data, (double *const *)gp,
                                 threads);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, es == 4 ? "cn_points_evalf_grad" : "cn_points_eval_grad");
}

static PyObject *Gen_get_dims(GenObject *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(gen_dims(self)); }

static PyMethodDef Gen_methods[] = {
    {"config", (PyCFunction)Gen_config, METH_NOARGS, "The cn_config the generator was built from, as a dict."},
    {"range", (PyCFunction)Gen_range, METH_NOARGS, "cn_noise_range: (low, high)."},
    {"reach", (PyCFunction)Gen_reach, METH_O, "cn_noise_reach(extent) -> float (inf where points give NaN)."},
    {"eval", (PyCFunction)Gen_eval, METH_VARARGS, "eval(coords, single=False): cn_eval / cn_evalf at one point."},
    {"grid", (PyCFunction)Gen_grid, METH_VARARGS, "grid(origin, step, out, threads): cn_grid_eval[f] into out."},
    {"points", (PyCFunction)Gen_points, METH_VARARGS,
     "points(coords, out, threads): cn_points_eval[f] into out."},
    {"eval_grad", (PyCFunction)Gen_eval_grad, METH_VARARGS,
     "eval_grad(coords, single=False) -> (value, gradient tuple): cn_eval_grad / cn_evalf_grad."},
    {"grid_grad", (PyCFunction)Gen_grid_grad, METH_VARARGS,
     "grid_grad(origin, step, out, grad, threads): cn_grid_eval[f]_grad into out and grad (dims, ...)."},
    {"points_grad", (PyCFunction)Gen_points_grad, METH_VARARGS,
     "points_grad(coords, out, grad, threads): cn_points_eval[f]_grad."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Gen_getset[] = {{"dims", (getter)Gen_get_dims, NULL, "Dimensions (1..4).", NULL},
                                   {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject GenType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cnoise._cnoise.Generator",
    .tp_basicsize = sizeof(GenObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Generator(config: dict): one built cn_noise (internal; use cnoise.Noise).",
    .tp_new = Gen_new,
    .tp_methods = Gen_methods,
    .tp_getset = Gen_getset,
};

/* ---- LayerSet: a weighted sum of generators -------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t count;
    cn_layer *layers;  /* noise pointers into the Generators held in refs */
    PyObject **refs;
} LayersObject;

static PyTypeObject LayersType;

static void Layers_dealloc(LayersObject *self)
{
    for (Py_ssize_t k = 0; k < self->count; k++)
        Py_XDECREF(self->refs[k]);
    PyMem_Free(self->refs);
    PyMem_Free(self->layers);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Layers_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *list;
    static char *kwlist[] = {"layers", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:LayerSet", kwlist, &list))
        return NULL;
    PyObject *seq = PySequence_Fast(list, "layers: expected a sequence of (Generator, weight)");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    LayersObject *self = (LayersObject *)type->tp_alloc(type, 0);
    if (!self) {
        Py_DECREF(seq);
        return NULL;
    }
    self->layers = PyMem_Calloc(n ? (size_t)n : 1, sizeof(cn_layer));
    self->refs = PyMem_Calloc(n ? (size_t)n : 1, sizeof(PyObject *));
    if (!self->layers || !self->refs) {
        Py_DECREF(seq);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k), *g;
        double w;
        if (!PyArg_ParseTuple(item, "O!d;layers: each layer is (Generator, weight)", &GenType, &g, &w)) {
            Py_DECREF(seq);
            Py_DECREF(self);
            return NULL;
        }
        self->refs[k] = Py_NewRef(g);
        self->layers[k].noise = &((GenObject *)g)->gen;
        self->layers[k].weight = w;
        self->count = k + 1;
    }
    Py_DECREF(seq);
    /* The library validates the sum (count, equal dimensions, finite weights and range). */
    double r[2];
    cn_status st = cn_layers_range(self->layers, (size_t)n, r);
    if (st != CN_OK) {
        raise_status(ConfigError, st, st == CN_E_SIGNAL ? "weight" : "layers", NULL, -1, NULL);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int layers_dims(LayersObject *self) { return cn_noise_config(self->layers[0].noise)->dims; }

static PyObject *Layers_range(LayersObject *self, PyObject *Py_UNUSED(ignored))
{
    double r[2];
    cn_status st = cn_layers_range(self->layers, (size_t)self->count, r);
    if (st != CN_OK) {
        raise_eval(st, "cn_layers_range");
        return NULL;
    }
    return Py_BuildValue("(dd)", r[0], r[1]);
}

static PyObject *Layers_eval(LayersObject *self, PyObject *args)
{
    double p[4], v;
    float pf[4], vf;
    int single;
    if (eval_args(args, layers_dims(self), p, pf, &single) < 0)
        return NULL;
    cn_status st;
    if (single) {
        st = cn_layers_evalf(self->layers, (size_t)self->count, pf, &vf);
        v = vf;
    } else
        st = cn_layers_eval(self->layers, (size_t)self->count, p, &v);
    if (st != CN_OK) {
        raise_eval(st, single ? "cn_layers_evalf" : "cn_layers_eval");
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

static PyObject *Layers_grid(LayersObject *self, PyObject *args)
{
    grid_call g;
    if (grid_args(args, layers_dims(self), &g) < 0)
        return NULL;
    const int es = g.es;
    const size_t n = (size_t)self->count;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (es == 4)
        st = cn_layers_grid_evalf(self->layers, n, g.origin, g.step, g.count, (float *)g.data, g.len, g.threads, NULL);
    else
        st = cn_layers_grid_eval(self->layers, n, g.origin, g.step, g.count, (double *)g.data, g.len, g.threads, NULL);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, es == 4 ? "cn_layers_grid_evalf" : "cn_layers_grid_eval");
}

/* points(coords, out): cn_layers_eval[f] point by point (the library has no threaded point-array
 * call for sums), with the GIL released. */
static PyObject *Layers_points(LayersObject *self, PyObject *args)
{
    PyObject *coords, *o_out;
    const int dims = layers_dims(self);
    const void *ptrs[4];
    size_t n;
    void *data;
    int es;
    if (!PyArg_ParseTuple(args, "OO:points", &coords, &o_out) || points_args(coords, o_out, dims, ptrs, &n, &data, &es) < 0)
        return NULL;
    cn_status st = CN_OK;
    Py_BEGIN_ALLOW_THREADS
    for (size_t i = 0; i < n && st == CN_OK; i++) {
        if (es == 4) {
            float p[4];
            for (int k = 0; k < dims; k++)
                p[k] = ((const float *)ptrs[k])[i];
            st = cn_layers_evalf(self->layers, (size_t)self->count, p, (float *)data + i);
        } else {
            double p[4];
            for (int k = 0; k < dims; k++)
                p[k] = ((const double *)ptrs[k])[i];
            st = cn_layers_eval(self->layers, (size_t)self->count, p, (double *)data + i);
        }
    }
    Py_END_ALLOW_THREADS
    return none_or_raise(st, es == 4 ? "cn_layers_evalf" : "cn_layers_eval");
}

static PyObject *Layers_get_dims(LayersObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(layers_dims(self));
}

static PyMethodDef Layers_methods[] = {
    {"range", (PyCFunction)Layers_range, METH_NOARGS, "cn_layers_range: (low, high)."},
    {"eval", (PyCFunction)Layers_eval, METH_VARARGS, "eval(coords, single=False): cn_layers_eval[f]."},
    {"grid", (PyCFunction)Layers_grid, METH_VARARGS, "grid(origin, step, out, threads): cn_layers_grid_eval[f]."},
    {"points", (PyCFunction)Layers_points, METH_VARARGS, "points(coords, out): cn_layers_eval[f] per point."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Layers_getset[] = {{"dims", (getter)Layers_get_dims, NULL, "Dimensions (1..4).", NULL},
                                      {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject LayersType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cnoise._cnoise.LayerSet",
    .tp_basicsize = sizeof(LayersObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LayerSet([(Generator, weight), ...]): a cn_layer array (internal; use cnoise.Layers).",
    .tp_new = Layers_new,
    .tp_dealloc = (destructor)Layers_dealloc,
    .tp_methods = Layers_methods,
    .tp_getset = Layers_getset,
};

/* ---- module functions ------------------------------------------------------------------------ */

static PyObject *m_default_config(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(a))
{
    cn_config cfg;
    cn_config_init(&cfg);
    return config_to_dict(&cfg);
}

/* check_config(dict) -> None or raises ConfigError: cn_config_explain without building. */
static PyObject *m_check_config(PyObject *Py_UNUSED(m), PyObject *d)
{
    cn_config cfg;
    cn_config_init(&cfg);
    if (config_from_dict(d, &cfg) < 0)
        return NULL;
    cn_check chk;
    if (cn_config_explain(&cfg, &chk) != CN_OK) {
        raise_check(&chk);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *m_names(PyObject *Py_UNUSED(m), PyObject *arg)
{
    const char *k = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (k && !strcmp(k, "type"))
        return names_list(NAME_TYPE);
    if (k && !strcmp(k, "mode"))
        return names_list(NAME_MODE);
    if (k && !strcmp(k, "fractal"))
        return names_list(NAME_FRACTAL);
    if (k && !strcmp(k, "cell_distance"))
        return names_list(NAME_CELL_DISTANCE);
    if (k && !strcmp(k, "cell_return"))
        return names_list(NAME_CELL_RETURN);
    PyErr_SetString(PyExc_ValueError, "names: 'type', 'mode', 'fractal', 'cell_distance' or 'cell_return'");
    return NULL;
}

/* rotation(dims, spec) -> list of 16: cn_config_rotate2(angle) for a number, cn_config_rotate3 for
 * (ax, ay, az, angle); the library refuses what does not suit dims. */
static PyObject *m_rotation(PyObject *Py_UNUSED(m), PyObject *args)
{
    int dims;
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "iO:rotation", &dims, &spec))
        return NULL;
    cn_config cfg;
    cn_config_init(&cfg);
    cfg.dims = dims;
    cn_status st;
    const char *call;
    if (PyNumber_Check(spec) && !PySequence_Check(spec)) {
        double angle;
        if (get_double(spec, "rotation", &angle) < 0)
            return NULL;
        st = cn_config_rotate2(&cfg, angle);
        call = "cn_config_rotate2 (a number is a 2D angle in radians)";
    } else {
        double a[4];
        if (get_doubles(spec, "rotation", 4, a) < 0)
            return NULL;
        st = cn_config_rotate3(&cfg, a[0], a[1], a[2], a[3]);
        call = "cn_config_rotate3 (ax, ay, az, angle in radians)";
    }
    if (st != CN_OK) {
        raise_status(ConfigError, st, "rotation", NULL, -1, call);
        return NULL;
    }
    return list_of_doubles(cfg.rotation, 16);
}

static PyObject *m_period_multiple(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *name;
    int dims, t;
    if (!PyArg_ParseTuple(args, "Oi:period_multiple", &name, &dims) || get_name(name, "type", NAME_TYPE, &t) < 0)
        return NULL;
    return PyLong_FromUnsignedLong(cn_period_multiple((cn_noise_type)t, dims));
}

static PyObject *m_isa(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(a))
{
    PyObject *d = PyDict_New();
    for (int i = 0; d && i < CN_ISA_COUNT; i++) {
        PyObject *v = Py_BuildValue("(NN)", PyBool_FromLong(cn_isa_compiled((cn_isa)i)),
                                    PyBool_FromLong(cn_isa_supported((cn_isa)i)));
        if (!v || PyDict_SetItemString(d, cn_isa_name((cn_isa)i), v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

static PyObject *m_isa_active(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(a))
{
    return PyUnicode_FromString(cn_isa_name(cn_isa_active()));
}

static PyObject *m_isa_set_cap(PyObject *Py_UNUSED(m), PyObject *arg)
{
    int cap = CN_ISA_COUNT;
    if (arg != Py_None) {
        const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
        if (!s) {
            PyErr_SetString(PyExc_TypeError, "cap: an instruction set name or None");
            return NULL;
        }
        for (cap = 0; cap < CN_ISA_COUNT; cap++)
            if (!strcmp(s, cn_isa_name((cn_isa)cap)))
                break;
        if (cap == CN_ISA_COUNT) {
            raise_status(Error, CN_E_ISA, "cap", NULL, -1, s);
            return NULL;
        }
    }
    cn_status st = cn_isa_set_cap((cn_isa)cap);
    if (st != CN_OK) {
        raise_status(Error, st, "cap", NULL, -1, NULL);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The potentials of a curl: a tuple of 1 (2D) or 3 (3D) generators, into psi[]. 0, or -1 with
 * an exception set. The library checks their dimensions. */
static int curl_potentials(PyObject *o, const cn_noise *psi[3], int *dims)
{
    if (!PyTuple_Check(o) || (PyTuple_GET_SIZE(o) != 1 && PyTuple_GET_SIZE(o) != 3)) {
        PyErr_SetString(PyExc_TypeError, "potentials: a tuple of one 2D or three 3D generators");
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(o); k++) {
        PyObject *g = PyTuple_GET_ITEM(o, k);
        if (!PyObject_TypeCheck(g, &GenType)) {
            PyErr_Format(PyExc_TypeError, "potentials: item %zd is not a generator", k);
            return -1;
        }
        psi[k] = &((GenObject *)g)->gen;
    }
    psi[1] = PyTuple_GET_SIZE(o) == 3 ? psi[1] : NULL;
    psi[2] = PyTuple_GET_SIZE(o) == 3 ? psi[2] : NULL;
    *dims = PyTuple_GET_SIZE(o) == 1 ? 2 : 3;
    return 0;
}

/* curl(potentials, coords, single) -> tuple: cn_curl / cn_curlf. */
static PyObject *m_curl(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *o_psi, *coords;
    int single = 0, dims;
    const cn_noise *psi[3];
    double p[4], v[3];
    float pf[4], vf[3];
    if (!PyArg_ParseTuple(args, "OO|p:curl", &o_psi, &coords, &single) || curl_potentials(o_psi, psi, &dims) < 0 ||
        get_doubles(coords, "coordinates", dims, p) < 0)
        return NULL;
    cn_status st;
    if (single) {
        for (int a = 0; a < dims; a++)
            pf[a] = (float)p[a];
        st = cn_curlf(psi, pf, vf);
        for (int a = 0; a < dims; a++)
            v[a] = (double)vf[a];
    } else {
        st = cn_curl(psi, p, v);
    }
    if (st != CN_OK) {
        raise_eval(st, single ? "cn_curlf" : "cn_curl");
        return NULL;
    }
    return tuple_of(v, dims);
}

/* curl_grid(potentials, origin, step, out, threads): cn_grid_curl[f] into out (dims, ...). */
static PyObject *m_curl_grid(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *o_psi, *o_origin, *o_step, *o_out;
    int threads, dims;
    const cn_noise *psi[3];
    double origin[4], step[4];
    size_t count[4];
    if (!PyArg_ParseTuple(args, "OOOOi:curl_grid", &o_psi, &o_origin, &o_step, &o_out, &threads) ||
        curl_potentials(o_psi, psi, &dims) < 0)
        return NULL;
    const int es = check_out(o_out, "out");
    if (es < 0 || get_doubles(o_origin, "origin", dims, origin) < 0 || get_doubles(o_step, "step", dims, step) < 0)
        return NULL;
    PyArrayObject *out = (PyArrayObject *)o_out;
    if (PyArray_NDIM(out) != dims + 1 || PyArray_DIM(out, 0) != dims) {
        PyErr_Format(PyExc_ValueError, "out: the curl of %dD potentials needs shape (%d,) + the grid's shape", dims, dims);
        return NULL;
    }
    size_t len = 1;
    for (int k = 0; k < dims; k++) {
        count[k] = (size_t)PyArray_DIM(out, dims - k);
        len *= count[k];
    }
    void *vp[3];
    for (int a = 0; a < dims; a++)
        vp[a] = (char *)PyArray_DATA(out) + (size_t)a * len * (size_t)es;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (es == 4)
        st = cn_grid_curlf(psi, origin, step, count, (float *const *)vp, len, threads);
    else
        st = cn_grid_curl(psi, origin, step, count, (double *const *)vp, len, threads);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, es == 4 ? "cn_grid_curlf" : "cn_grid_curl");
}

/* The stages of a warp: a tuple of (fields: tuple of 1..4 generators, amplitude: float, mode:
 * 0 independent / 1 progressive), into w[] (at most CN_MAX_WARP_STAGES). The library checks the
 * rest (dimensions, amplitudes, modes). 0, or -1 with an exception set. */
static int warp_stages(PyObject *o, cn_warp *w, size_t *n)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) < 1 || PyTuple_GET_SIZE(o) > CN_MAX_WARP_STAGES) {
        PyErr_Format(PyExc_ValueError, "warp: 1 to %d stages", CN_MAX_WARP_STAGES);
        return -1;
    }
    *n = (size_t)PyTuple_GET_SIZE(o);
    for (size_t s = 0; s < *n; s++) {
        PyObject *fields, *st = PyTuple_GET_ITEM(o, (Py_ssize_t)s);
        int mode;
        memset(&w[s], 0, sizeof w[s]);
        if (!PyArg_ParseTuple(st, "Odi:warp stage", &fields, &w[s].amplitude, &mode))
            return -1;
        w[s].mode = (cn_warp_mode)mode;
        if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) < 1 || PyTuple_GET_SIZE(fields) > 4) {
            PyErr_Format(PyExc_TypeError, "warp stage %zu: fields must be a tuple of 1 to 4 generators", s);
            return -1;
        }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(fields); k++) {
            PyObject *g = PyTuple_GET_ITEM(fields, k);
            if (!PyObject_TypeCheck(g, &GenType)) {
                PyErr_Format(PyExc_TypeError, "warp stage %zu: field %zd is not a generator", s, k);
                return -1;
            }
            w[s].field[k] = &((GenObject *)g)->gen;
        }
    }
    return 0;
}

/* What a warp call warps: a Generator (cn_warp_*), or a LayerSet (cn_warp_layers_*: layers set,
 * gen its first generator). 0, or -1 with an exception set. */
typedef struct {
    const cn_noise *gen;
    const cn_layer *layers;
    size_t nlayers;
} warp_target;

static int warp_target_of(PyObject *o, warp_target *t)
{
    t->layers = NULL;
    t->nlayers = 0;
    if (PyObject_TypeCheck(o, &GenType)) {
        t->gen = &((GenObject *)o)->gen;
        return 0;
    }
    if (PyObject_TypeCheck(o, &LayersType)) {
        const LayersObject *l = (const LayersObject *)o;
        t->layers = l->layers;
        t->nlayers = (size_t)l->count;
        t->gen = l->layers[0].noise; /* a LayerSet has at least one layer */
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "warp: expected a generator or a layer set");
    return -1;
}

/* warp_eval(gen or layers, stages, coords, single, want_grad) -> value or (value, (d/dx, ...)):
 * cn_warp_eval / cn_warp_evalf, or cn_warp_layers_eval / cn_warp_layers_evalf. */
static PyObject *m_warp_eval(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *o_gen, *o_st, *coords;
    int single = 0, want_grad = 0;
    cn_warp w[CN_MAX_WARP_STAGES];
    size_t nw;
    warp_target t;
    if (!PyArg_ParseTuple(args, "OOO|pp:warp_eval", &o_gen, &o_st, &coords, &single, &want_grad) ||
        warp_target_of(o_gen, &t) < 0 || warp_stages(o_st, w, &nw) < 0)
        return NULL;
    const cn_noise *gen = t.gen;
    const int dims = cn_noise_config(gen)->dims;
    double p[4], v, g[4];
    float pf[4], vf, gf[4];
    if (get_doubles(coords, "coordinates", dims, p) < 0)
        return NULL;
    for (int a = 0; a < dims; a++)
        pf[a] = (float)p[a];
    cn_status st;
    if (t.layers)
        st = single ? cn_warp_layers_evalf(t.layers, t.nlayers, w, nw, pf, &vf, want_grad ? gf : NULL)
                    : cn_warp_layers_eval(t.layers, t.nlayers, w, nw, p, &v, want_grad ? g : NULL);
    else
        st = single ? cn_warp_evalf(gen, w, nw, pf, &vf, want_grad ? gf : NULL)
                    : cn_warp_eval(gen, w, nw, p, &v, want_grad ? g : NULL);
    if (st != CN_OK) {
        raise_eval(st, t.layers ? (single ? "cn_warp_layers_evalf" : "cn_warp_layers_eval")
                                : (single ? "cn_warp_evalf" : "cn_warp_eval"));
        return NULL;
    }
    if (single) {
        v = (double)vf;
        for (int a = 0; want_grad && a < dims; a++)
            g[a] = (double)gf[a];
    }
    if (!want_grad)
        return PyFloat_FromDouble(v);
    PyObject *gt = tuple_of(g, dims);
    return gt ? Py_BuildValue("(dN)", v, gt) : NULL;
}

/* warp_grid(gen or layers, stages, origin, step, out, grad or None, threads): cn_warp_grid_eval[f] or
 * cn_warp_layers_grid_eval[f]. */
static PyObject *m_warp_grid(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *o_gen, *o_st, *o_origin, *o_step, *o_out, *o_grad;
    grid_call g;
    cn_warp w[CN_MAX_WARP_STAGES];
    size_t nw;
    void *gp[4];
    warp_target t;
    if (!PyArg_ParseTuple(args, "OOOOOOi:warp_grid", &o_gen, &o_st, &o_origin, &o_step, &o_out, &o_grad, &g.threads) ||
        warp_target_of(o_gen, &t) < 0 || warp_stages(o_st, w, &nw) < 0)
        return NULL;
    const cn_noise *gen = t.gen;
    const int dims = cn_noise_config(gen)->dims;
    PyObject *rest = Py_BuildValue("(OOOi)", o_origin, o_step, o_out, g.threads);
    if (!rest)
        return NULL;
    const int bad = grid_args(rest, dims, &g) < 0 ||
                    (o_grad != Py_None && grad_args(o_grad, (PyArrayObject *)o_out, dims, gp) < 0);
    Py_DECREF(rest);
    if (bad)
        return NULL;
    void *const *grad = o_grad != Py_None ? gp : NULL;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (g.es == 4 && t.layers)
        st = cn_warp_layers_grid_evalf(t.layers, t.nlayers, w, nw, g.origin, g.step, g.count, (float *)g.data,
                                       (float *const *)grad, g.len, g.threads, NULL);
    else if (t.layers)
        st = cn_warp_layers_grid_eval(t.layers, t.nlayers, w, nw, g.origin, g.step, g.count, (double *)g.data,
                                      (double *const *)grad, g.len, g.threads, NULL);
    else if (g.es == 4)
        st = cn_warp_grid_evalf(gen, w, nw, g.origin, g.step, g.count, (float *)g.data, (float *const *)grad, g.len,
                                g.threads, NULL);
    else
        st = cn_warp_grid_eval(gen, w, nw, g.origin, g.step, g.count, (double *)g.data, (double *const *)grad, g.len,
                               g.threads, NULL);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, t.layers ? (g.es == 4 ? "cn_warp_layers_grid_evalf" : "cn_warp_layers_grid_eval")
                                      : (g.es == 4 ? "cn_warp_grid_evalf" : "cn_warp_grid_eval"));
}

/* warp_points(gen or layers, stages, coords, out, grad or None, threads): cn_warp_points_eval[f] or
 * cn_warp_layers_points_eval[f]. */
static PyObject *m_warp_points(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *o_gen, *o_st, *coords, *o_out, *o_grad;
    int threads, es;
    const void *ptrs[4];
    void *gp[4], *data;
    size_t n, nw;
    cn_warp w[CN_MAX_WARP_STAGES];
    warp_target t;
    if (!PyArg_ParseTuple(args, "OOOOOi:warp_points", &o_gen, &o_st, &coords, &o_out, &o_grad, &threads) ||
        warp_target_of(o_gen, &t) < 0 || warp_stages(o_st, w, &nw) < 0)
        return NULL;
    const cn_noise *gen = t.gen;
    const int dims = cn_noise_config(gen)->dims;
    if (points_args(coords, o_out, dims, ptrs, &n, &data, &es) < 0 ||
        (o_grad != Py_None && grad_args(o_grad, (PyArrayObject *)o_out, dims, gp) < 0))
        return NULL;
    void *const *grad = o_grad != Py_None ? gp : NULL;
    cn_status st;
    Py_BEGIN_ALLOW_THREADS
    if (es == 4 && t.layers)
        st = cn_warp_layers_points_evalf(t.layers, t.nlayers, w, nw, n, (const float *const *)ptrs, (float *)data,
                                         (float *const *)grad, threads, NULL);
    else if (t.layers)
        st = cn_warp_layers_points_eval(t.layers, t.nlayers, w, nw, n, (const double *const *)ptrs, (double *)data,
                                        (double *const *)grad, threads, NULL);
    else if (es == 4)
        st = cn_warp_points_evalf(gen, w, nw, n, (const float *const *)ptrs, (float *)data, (float *const *)grad,
                                  threads, NULL);
    else
        st = cn_warp_points_eval(gen, w, nw, n, (const double *const *)ptrs, (double *)data, (double *const *)grad,
                                 threads, NULL);
    Py_END_ALLOW_THREADS
    return none_or_raise(st, t.layers ? (es == 4 ? "cn_warp_layers_points_evalf" : "cn_warp_layers_points_eval")
                                      : (es == 4 ? "cn_warp_points_evalf" : "cn_warp_points_eval"));
}

static PyObject *m_strerror(PyObject *Py_UNUSED(m), PyObject *arg)
{
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred())
        return NULL;
    return PyUnicode_FromString(cn_strerror((cn_status)s));
}

static PyMethodDef module_methods[] = {
    {"default_config", m_default_config, METH_NOARGS, "cn_config_init's configuration, as a dict."},
    {"check_config", m_check_config, METH_O, "cn_config_explain(dict): None, or raises ConfigError."},
    {"names", m_names, METH_O, "names('type'|'mode'|'fractal'|'cell_distance'|'cell_return'): the library's names, in enum order."},
    {"rotation", m_rotation, METH_VARARGS, "rotation(dims, angle | (ax, ay, az, angle)) -> 16 matrix entries."},
    {"period_multiple", m_period_multiple, METH_VARARGS, "cn_period_multiple(type name, dims)."},
    {"isa", m_isa, METH_NOARGS, "{name: (compiled, supported)} for every instruction set."},
    {"isa_active", m_isa_active, METH_NOARGS, "cn_isa_active()'s name."},
    {"isa_set_cap", m_isa_set_cap, METH_O, "cn_isa_set_cap(name or None)."},
    {"strerror", m_strerror, METH_O, "cn_strerror(status)."},
    {"curl", m_curl, METH_VARARGS, "curl(potentials, coords, single=False) -> tuple: cn_curl / cn_curlf."},
    {"curl_grid", m_curl_grid, METH_VARARGS,
     "curl_grid(potentials, origin, step, out, threads): cn_grid_curl[f] into out (dims, ...)."},
    {"warp_eval", m_warp_eval, METH_VARARGS,
     "warp_eval(gen, stages, coords, single=False, grad=False): cn_warp_eval / cn_warp_evalf."},
    {"warp_grid", m_warp_grid, METH_VARARGS,
     "warp_grid(gen, stages, origin, step, out, grad or None, threads): cn_warp_grid_eval[f]."},
    {"warp_points", m_warp_points, METH_VARARGS,
     "warp_points(gen, stages, coords, out, grad or None, threads): cn_warp_points_eval[f]."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "cnoise._cnoise",
                                        "The C binding of libcnoise (internal; use the cnoise package).", -1,
                                        module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cnoise(void)
{
    import_array();
    if (PyType_Ready(&GenType) < 0 || PyType_Ready(&LayersType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    Error = PyErr_NewExceptionWithDoc(
        "cnoise.Error",
        "A call the library refused: the message carries cn_strerror's text; the attributes status "
        "(the cn_status code), strerror, field (the parameter), field2, axis and reason.",
        PyExc_ValueError, NULL);
    ConfigError = Error ? PyErr_NewExceptionWithDoc(
                              "cnoise.ConfigError",
                              "A configuration the library refused (cn_config_explain): field names the "
                              "keyword argument, axis the axis of a per-axis setting, reason says why.",
                              Error, NULL)
                        : NULL;
    if (!ConfigError || PyModule_AddObjectRef(m, "Error", Error) < 0 ||
        PyModule_AddObjectRef(m, "ConfigError", ConfigError) < 0 ||
        PyModule_AddObjectRef(m, "Generator", (PyObject *)&GenType) < 0 ||
        PyModule_AddObjectRef(m, "LayerSet", (PyObject *)&LayersType) < 0 ||
        PyModule_AddStringConstant(m, "version", cn_version()) < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", CN_MAX_THREADS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
