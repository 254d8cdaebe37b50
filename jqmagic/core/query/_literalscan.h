/* The number literals of a JSON text read in one pass in C, the GIL let go (a thread reads
 * them while orjson parses the same text): the facts they show (jqlang/literals.py: long,
 * odd, whole, zero), whether each literal where those are found prints as its double does
 * (literals._as_jq_prints), and the distinct literals whose text jq 1.8.2 may print
 * otherwise than the fast path prints their double (jqlang/oddtexts.candidates, less the
 * fractions that are their double's shortest text: those print alike). Only literals
 * count: the contents of strings are skipped (a raw newline, which no JSON string holds,
 * ends one too). Included once by _jvbuild.c; literalfacts.py calls it.
 */
#include <stdlib.h>

#define FACT_LONG 1
#define FACT_ODD 2
#define FACT_WHOLE 4
#define FACT_ZERO 8
#define MAX_TOKENS 4096 /* oddtexts.MAX_ODD: distinct literals learnt at most */
#define TABLE_SIZE 16384 /* a power of two, four times MAX_TOKENS */

typedef struct {
    const char *at;
    Py_ssize_t len;
} token_span;

typedef struct {
    int facts;
    int unlike;   /* a literal where the facts are found prints otherwise than its double */
    int overflow; /* more than MAX_TOKENS distinct literals to learn */
    Py_ssize_t count;
    token_span *table;
} scan_state;

static unsigned char number_byte[256]; /* 0-9 . e E + - */
static unsigned char string_stop[256]; /* " \ and a raw newline */

static void scan_tables(void) {
    const char *chars = "0123456789.eE+-";
    for (const char *c = chars; *c; c++) number_byte[(unsigned char)*c] = 1;
    string_stop['"'] = string_stop['\\'] = string_stop['\n'] = 1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static void remember(scan_state *s, const char *at, Py_ssize_t len) {
    unsigned long long hash = 1469598103934665603ULL; /* FNV-1a */
    for (Py_ssize_t i = 0; i < len; i++) hash = (hash ^ (unsigned char)at[i]) * 1099511628211ULL;
    for (size_t slot = hash & (TABLE_SIZE - 1);; slot = (slot + 1) & (TABLE_SIZE - 1)) {
        token_span *entry = &s->table[slot];
        if (entry->at == NULL) {
            if (s->count == MAX_TOKENS) {
                s->overflow = 1;
                return;
            }
            entry->at = at;
            entry->len = len;
            s->count++;
            return;
        }
        if (entry->len == len && memcmp(entry->at, at, (size_t)len) == 0) return;
    }
}

/* Whether a fraction written without an exponent nor a 0 ending it (int_at, frac_at)
 * is the shortest text of its double v, as Python's repr (and jq's printing of a
 * computed double between 1e-4 and 1e16) writes it. Up to 15 significant digits every
 * text is (doubles tell 15 digits apart); 16 or 17 are when they are the closest such
 * digits to v and no text one digit shorter reads back as v. */
static int shortest(const char *int_at, Py_ssize_t int_len, const char *frac_at,
                    Py_ssize_t frac_len, double v) {
    char digits[48];
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < int_len + frac_len; i++) {
        char c = i < int_len ? int_at[i] : frac_at[i - int_len];
        if (n == 0 && c == '0') continue;
        if (n == (Py_ssize_t)sizeof digits - 1) return 0;
        digits[n++] = c;
    }
    if (n <= 15) return 1;
    if (n > 17) return 0;
    char printed[48], shorter[48];
    snprintf(printed, sizeof printed, "%.*e", (int)n - 1, v);
    const char *p = printed + (printed[0] == '-');
    if (p[0] != digits[0] || p[1] != '.' || memcmp(p + 2, digits + 1, (size_t)n - 1) != 0)
        return 0;
    snprintf(shorter, sizeof shorter, "%.*e", (int)n - 2, v);
    return strtod(shorter, NULL) != v;
}

/* Past 64 bits as an integer: orjson reads it as a double (oddtexts.candidates). */
static int beyond_64_bits(int negative, const char *digits, Py_ssize_t len) {
    if (negative)
        return len > 19 || (len == 19 && memcmp(digits, "9223372036854775808", 19) > 0);
    return len > 20 || (len == 20 && memcmp(digits, "18446744073709551616", 20) >= 0);
}

static void number(scan_state *s, const char *t, Py_ssize_t n) {
    const char *p = t, *end = t + n;
    int negative = p < end && *p == '-';
    p += negative;
    const char *int_at = p;
    while (p < end && is_digit(*p)) p++;
    Py_ssize_t int_len = p - int_at, frac_len = 0, exp_len = 0;
    const char *frac_at = p;
    int point = p < end && *p == '.', exponent = 0;
    if (point) {
        frac_at = ++p;
        while (p < end && is_digit(*p)) p++;
        frac_len = p - frac_at;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        exponent = 1;
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        const char *exp_at = p;
        while (p < end && is_digit(*p)) p++;
        exp_len = p - exp_at;
    }
    if (p != end || int_len == 0 || (point && frac_len == 0) || (exponent && exp_len == 0)) {
        s->facts |= FACT_LONG | FACT_ODD; /* no JSON number (no JSON text): cautious */
        s->unlike = 1;
        return;
    }
    int whole = frac_len == 1 && frac_at[0] == '0';
    int odd = exponent || (frac_len >= 4 && memcmp(frac_at, "0000", 4) == 0) ||
              (frac_len >= 2 && frac_at[frac_len - 1] == '0');
    int long_ = int_len + point + frac_len >= 16 || exp_len >= 3;
    s->facts |= (long_ ? FACT_LONG : 0) | (odd ? FACT_ODD : 0) | (whole ? FACT_WHOLE : 0);
    if (negative && int_len == 1 && int_at[0] == '0' && !point && !exponent)
        s->facts |= FACT_ZERO;
    if (!odd && !long_) return; /* prints as its double does */
    int plain = 0;
    if (exponent) {
        s->unlike = 1;
    } else if (!point || whole) {
        if (int_len > 15) s->unlike = 1;
    } else {
        char text[64];
        double v = 0.0;
        if (n < (Py_ssize_t)sizeof text) {
            memcpy(text, t, (size_t)n);
            text[n] = '\0';
            v = fabs(strtod(text, NULL));
        }
        plain = v >= 1e-4 && v < 1e16 && frac_at[frac_len - 1] != '0' &&
                shortest(int_at, int_len, frac_at, frac_len, v);
        if (!plain) s->unlike = 1;
    }
    if (!plain && (point || exponent || beyond_64_bits(negative, int_at, int_len)))
        remember(s, t, n);
}

/* Past the string whose opening quote is at p: after its closing quote, or at a raw
 * newline (which ends it for the scan: JSON Lines' next line), or at the end. */
static inline const char *past_string(const char *p, const char *end) {
    for (p++; p < end; p++) {
        while (p < end && !string_stop[(unsigned char)*p]) p++;
        if (p >= end || *p == '\n') return p;
        if (*p == '"') return p + 1;
        p++; /* a backslash: the escaped byte is skipped by the loop's step */
    }
    return p;
}

/* The next number literal outside strings at or past *at: its first byte, *at moved past
 * its last; NULL at the end. The one walk of both scans below. */
static inline const char *next_literal(const char **at, const char *end) {
    const char *p = *at;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            p = past_string(p, end);
        } else if (c == '-' || is_digit(c)) {
            const char *t = p++;
            while (p < end && number_byte[(unsigned char)*p]) p++;
            *at = p;
            return t;
        } else {
            p++;
        }
    }
    *at = p;
    return NULL;
}

static void scan_text(scan_state *s, const char *p, const char *end) {
    for (const char *t; (t = next_literal(&p, end)) != NULL;) number(s, t, p - t);
}

/* scan_literals(text) -> (facts, unlike, tokens): facts as FACT_ bits; unlike: some
 * literal where they are found prints otherwise than its double; tokens: the distinct
 * literals to learn the texts of (None: more than MAX_TOKENS). */
static PyObject *scan_literals(PyObject *self, PyObject *args) {
    Py_buffer text;
    if (!PyArg_ParseTuple(args, "y*", &text)) return NULL;
    scan_state s = {0, 0, 0, 0, NULL};
    s.table = PyMem_RawCalloc(TABLE_SIZE, sizeof(token_span));
    if (s.table == NULL) {
        PyBuffer_Release(&text);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    scan_text(&s, text.buf, (const char *)text.buf + text.len);
    Py_END_ALLOW_THREADS
    PyObject *tokens = Py_None, *answer = NULL;
    Py_INCREF(tokens);
    if (!s.overflow) {
        Py_DECREF(tokens);
        tokens = PyList_New(0);
        for (Py_ssize_t i = 0; tokens != NULL && i < TABLE_SIZE; i++) {
            if (s.table[i].at == NULL) continue;
            PyObject *token = PyBytes_FromStringAndSize(s.table[i].at, s.table[i].len);
            if (token == NULL || PyList_Append(tokens, token) < 0) Py_CLEAR(tokens);
            Py_XDECREF(token);
        }
    }
    if (tokens != NULL) answer = Py_BuildValue("iON", s.facts, s.unlike ? Py_True : Py_False,
                                               tokens);
    PyMem_RawFree(s.table);
    PyBuffer_Release(&text);
    return answer;
}

/* literals_written(text, plains) -> list of bools: whether each of plains (bytes, at most
 * 64) is a whole number literal of text, outside its strings. */
static PyObject *literals_written(PyObject *self, PyObject *args) {
    Py_buffer text;
    PyObject *plains;
    if (!PyArg_ParseTuple(args, "y*O!", &text, &PyTuple_Type, &plains)) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(plains);
    const char *wanted[64];
    Py_ssize_t lengths[64];
    int found[64] = {0};
    if (count > 64) {
        PyBuffer_Release(&text);
        return PyErr_Format(PyExc_ValueError, "at most 64 literals are looked for");
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *plain = PyTuple_GET_ITEM(plains, i);
        if (!PyBytes_Check(plain)) {
            PyBuffer_Release(&text);
            return PyErr_Format(PyExc_TypeError, "the literals are bytes");
        }
        wanted[i] = PyBytes_AS_STRING(plain);
        lengths[i] = PyBytes_GET_SIZE(plain);
    }
    Py_BEGIN_ALLOW_THREADS
    const char *p = text.buf, *end = (const char *)text.buf + text.len;
    for (const char *t; (t = next_literal(&p, end)) != NULL;)
        for (Py_ssize_t i = 0; i < count; i++)
            if (lengths[i] == p - t && memcmp(wanted[i], t, (size_t)lengths[i]) == 0)
                found[i] = 1;
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&text);
    PyObject *answer = PyList_New(count);
    for (Py_ssize_t i = 0; answer != NULL && i < count; i++) {
        PyObject *flag = found[i] ? Py_True : Py_False;
        Py_INCREF(flag);
        PyList_SET_ITEM(answer, i, flag);
    }
    return answer;
}
