/* A JSON file's documents as jq 1.8.2's reader would meet them, in one pass at C speed and
 * in a fixed buffer (the text is never held): how many top-level documents there are, the
 * first one's kind, and the biggest document's size. The grammar is strict JSON, so that a
 * file this scan vouches for is one jq parses as it does; where it cannot vouch (a damaged
 * document, jq's own leniencies such as `nan` or `01`, a raw control character, a NUL, an
 * unpaired high surrogate escape, very deep nesting, an odd number literal) it says where,
 * and the caller lets jq's own parser answer. Objects down to ``key_depth`` (the top-level
 * document's own keys are depth 1) must not repeat a key (jq keeps the last value, in the
 * first one's place; a streamed walk would meet both): a key that repeats, or one it does
 * not compare as jq does (a non-ASCII byte or escape), is said where it is first met; the
 * scan goes on counting the documents (libjq may read them one at a time).
 *
 *     scan(path, key_depth) -> (vouched, documents, first_kind, biggest, odd_at, repeated_at)
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BLOCK (1 << 20)
#define MAX_DEPTH 4096   /* jq refuses past 10000: well within it */
#define MAX_NUMBER 300   /* a longer literal: decNumber's limits are not copied here */

enum { VALUE, ARRAY_FIRST, OBJECT_FIRST, KEY, COLON, AFTER, TOP, STRING, ESCAPE, UNICODE,
       PAIR_BACKSLASH, PAIR_U, NUMBER, LITERAL };
enum { N_SIGN, N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

/* The keys of the open object at one depth: 64-bit hashes in an open-addressed table,
 * emptied in O(1) by a new generation for each object. */
typedef struct {
    uint64_t *hash;
    uint32_t *generation;
    size_t capacity, count;
    uint32_t current;
} Keys;

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

typedef struct {
    /* grammar */
    int state, number, depth, is_key, hex, code, low;
    const char *literal;
    int literal_at;
    long long token;
    unsigned char stack[MAX_DEPTH / 8];
    int top_scalar; /* the last top-level value was a number or literal: a space must follow */
    /* documents */
    long long documents, doc_start, biggest;
    int first_kind;
    long long odd_at;
    /* keys of the objects down to key_depth */
    int key_depth, hashing;
    long long repeated_at;
    uint64_t key_hash;
    Keys *keys; /* [key_depth + 1], by depth */
} Scan;

static void hash_byte(Scan *s, unsigned char c) {
    s->key_hash = (s->key_hash ^ c) * FNV_PRIME;
}

/* A key of the object at ``depth`` ended: 0 when it was there already (or no memory). */
static int key_once(Scan *s, int depth) {
    Keys *k = &s->keys[depth];
    if (2 * (k->count + 1) > k->capacity) { /* grow: the current generation's keys again */
        size_t capacity = k->capacity ? 2 * k->capacity : 64;
        uint64_t *hash = calloc(capacity, sizeof *hash);
        uint32_t *generation = calloc(capacity, sizeof *generation);
        if (!hash || !generation) {
            free(hash);
            free(generation);
            return 0;
        }
        for (size_t i = 0; i < k->capacity; i++) {
            if (k->generation[i] != k->current) continue;
            size_t at = (size_t)(k->hash[i] & (capacity - 1));
            while (generation[at] == k->current) at = (at + 1) & (capacity - 1);
            hash[at] = k->hash[i];
            generation[at] = k->current;
        }
        free(k->hash);
        free(k->generation);
        k->hash = hash;
        k->generation = generation;
        k->capacity = capacity;
    }
    size_t at = (size_t)(s->key_hash & (k->capacity - 1));
    while (k->generation[at] == k->current) {
        if (k->hash[at] == s->key_hash) return 0;
        at = (at + 1) & (k->capacity - 1);
    }
    k->hash[at] = s->key_hash;
    k->generation[at] = k->current;
    k->count++;
    return 1;
}

static void set_kind(Scan *s, int object) {
    if (object) s->stack[s->depth / 8] |= (unsigned char)(1 << (s->depth % 8));
    else s->stack[s->depth / 8] &= (unsigned char)~(1 << (s->depth % 8));
}

static int is_object(const Scan *s) {
    return (s->stack[(s->depth - 1) / 8] >> ((s->depth - 1) % 8)) & 1;
}

static int is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A value has ended at ``at`` (its last byte): the state after it. */
static void value_done(Scan *s, long long at, int scalar) {
    if (s->depth > 0) {
        s->state = AFTER;
        return;
    }
    s->state = TOP;
    s->top_scalar = scalar;
    s->documents++;
    if (at + 1 - s->doc_start > s->biggest) s->biggest = at + 1 - s->doc_start;
}

static void start_value(Scan *s, long long at, int kind) {
    if (s->depth == 0) {
        s->doc_start = at;
        if (s->documents == 0) s->first_kind = kind;
    }
}

/* A key at ``at`` repeats (or is not compared here): said once, and no key hashed after. */
static void repeated(Scan *s, long long at) {
    s->repeated_at = at;
    s->key_depth = 0;
    s->hashing = 0;
}

/* One byte of the grammar; 0 where the scan cannot vouch for the text. */
static inline int step(Scan *s, unsigned char c, long long at) {
    for (;;) {
        switch (s->state) {
        case STRING:
            if (c == '"') {
                if (s->is_key) {
                    s->state = COLON;
                    if (s->hashing && !key_once(s, s->depth)) repeated(s, at);
                    s->hashing = 0;
                } else {
                    value_done(s, at, 0);
                }
                return 1;
            }
            if (c == '\\') s->state = ESCAPE;
            else if (c < 0x20) return 0; /* jq refuses a raw control character */
            else if (s->hashing) {
                if (c >= 0x80) repeated(s, at); /* compared as jq compares it: not copied */
                else hash_byte(s, c);
            }
            return 1;
        case ESCAPE:
            if (c == 'u') {
                s->state = UNICODE;
                s->hex = s->code = s->low = 0;
                return 1;
            }
            if (!strchr("\"\\/bfnrt", c) || c == 0) return 0;
            if (s->hashing) hash_byte(s, c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' :
                                         c == 'r' ? '\r' : c == 't' ? '\t' : c);
            s->state = STRING;
            return 1;
        case UNICODE:
            if (c >= '0' && c <= '9') s->code = s->code * 16 + (c - '0');
            else if (c >= 'a' && c <= 'f') s->code = s->code * 16 + (c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') s->code = s->code * 16 + (c - 'A' + 10);
            else return 0;
            if (++s->hex < 4) return 1;
            if (s->hashing) {
                if (s->code >= 0x80 || s->low) repeated(s, at); /* not compared here */
                else hash_byte(s, (unsigned char)s->code);
            }
            if (s->low) { /* jq wants a low surrogate after a high one */
                if (s->code < 0xDC00 || s->code > 0xDFFF) return 0;
                s->state = STRING;
            } else {
                s->state = s->code >= 0xD800 && s->code <= 0xDBFF ? PAIR_BACKSLASH : STRING;
            }
            return 1;
        case PAIR_BACKSLASH:
            if (c != '\\') return 0;
            s->state = PAIR_U;
            return 1;
        case PAIR_U:
            if (c != 'u') return 0;
            s->state = UNICODE;
            s->hex = s->code = 0;
            s->low = 1;
            return 1;
        case LITERAL:
            if (s->literal[s->literal_at] != '\0') {
                if (c != (unsigned char)s->literal[s->literal_at]) return 0;
                s->literal_at++;
                if (s->literal[s->literal_at] == '\0') value_done(s, at, 1);
                return 1;
            }
            return 0;
        case NUMBER: {
            int n = s->number, digit = c >= '0' && c <= '9';
            if (++s->token > MAX_NUMBER) return 0;
            if (n == N_SIGN && c == '-') { s->number = N_MINUS; return 1; }
            if (n == N_SIGN || n == N_MINUS) {
                if (!digit) return 0;
                s->number = c == '0' ? N_ZERO : N_INT;
                return 1;
            }
            if (n == N_INT && digit) return 1;
            if ((n == N_DOT || n == N_FRAC) && digit) { s->number = N_FRAC; return 1; }
            if ((n == N_E || n == N_ESIGN || n == N_EXP) && digit) {
                if (++s->hex > 5) return 0; /* an exponent past decNumber's reach */
                s->number = N_EXP;
                return 1;
            }
            if (n == N_E && (c == '+' || c == '-')) { s->number = N_ESIGN; return 1; }
            if ((n == N_ZERO || n == N_INT) && c == '.') { s->number = N_DOT; return 1; }
            if ((n == N_ZERO || n == N_INT || n == N_FRAC) && (c == 'e' || c == 'E')) {
                s->number = N_E;
                s->hex = 0;
                return 1;
            }
            if (n == N_DOT || n == N_E || n == N_ESIGN) return 0;
            /* the number ended at the byte before: this byte is the next state's */
            value_done(s, at - 1, 1);
            if (s->state == TOP && !is_space(c)) return 0;
            continue;
        }
        case TOP:
            if (is_space(c)) {
                s->top_scalar = 0;
                return 1;
            }
            if (s->top_scalar) return 0; /* `1[`, `1"x"`: jq's own reading, not copied */
            s->state = VALUE;
            continue;
        case VALUE:
        case ARRAY_FIRST:
            if (is_space(c)) return 1;
            if (s->state == ARRAY_FIRST && c == ']') goto close;
            if (c == '{' || c == '[') {
                if (s->depth >= MAX_DEPTH) return 0;
                start_value(s, at, c == '{' ? 'o' : 'a');
                set_kind(s, c == '{');
                s->depth++;
                if (c == '{' && s->depth <= s->key_depth) {
                    s->keys[s->depth].current++;
                    s->keys[s->depth].count = 0;
                }
                s->state = c == '{' ? OBJECT_FIRST : ARRAY_FIRST;
                return 1;
            }
            if (c == '"') {
                start_value(s, at, 's');
                s->state = STRING;
                s->is_key = 0;
                return 1;
            }
            if (c == '-' || (c >= '0' && c <= '9')) {
                start_value(s, at, 'n');
                s->state = NUMBER;
                s->number = N_SIGN;
                s->token = 0;
                continue; /* the sign state takes this byte */
            }
            if (c == 't' || c == 'f' || c == 'n') {
                start_value(s, at, 'l');
                s->literal = c == 't' ? "true" : c == 'f' ? "false" : "null";
                s->literal_at = 1;
                s->state = LITERAL;
                return 1;
            }
            return 0;
        case OBJECT_FIRST:
        case KEY:
            if (is_space(c)) return 1;
            if (s->state == OBJECT_FIRST && c == '}') goto close;
            if (c != '"') return 0;
            s->state = STRING;
            s->is_key = 1;
            if (s->depth <= s->key_depth) {
                s->hashing = 1;
                s->key_hash = FNV_OFFSET;
            }
            return 1;
        case COLON:
            if (is_space(c)) return 1;
            if (c != ':') return 0;
            s->state = VALUE;
            return 1;
        case AFTER:
            if (is_space(c)) return 1;
            if (c == ',') {
                s->state = is_object(s) ? KEY : VALUE;
                return 1;
            }
            if (c == ']' || c == '}') goto close;
            return 0;
        }
        return 0;
    close:
        if ((c == '}') != is_object(s)) return 0;
        s->depth--;
        value_done(s, at, 0);
        return 1;
    }
}

static PyObject *scan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *path_obj;
    int key_depth;
    if (!PyArg_ParseTuple(args, "O&i", PyUnicode_FSConverter, &path_obj, &key_depth))
        return NULL;
    if (key_depth < 0 || key_depth > MAX_DEPTH) key_depth = MAX_DEPTH;
    Scan *s = PyMem_Calloc(1, sizeof(Scan));
    unsigned char *block = PyMem_Malloc(BLOCK);
    Keys *keys = PyMem_Calloc((size_t)key_depth + 1, sizeof(Keys));
    if (!s || !block || !keys) {
        PyMem_Free(s);
        PyMem_Free(block);
        PyMem_Free(keys);
        Py_DECREF(path_obj);
        return PyErr_NoMemory();
    }
    s->key_depth = key_depth;
    s->keys = keys;
    s->state = TOP;
    s->odd_at = s->repeated_at = -1;
    int failed = 0;
    long long offset = 0;
    Py_BEGIN_ALLOW_THREADS
    FILE *file = fopen(PyBytes_AS_STRING(path_obj), "rb");
    if (!file) {
        failed = 1;
    } else {
        size_t got;
        int first = 1;
        while ((got = fread(block, 1, BLOCK, file)) > 0) {
            size_t i = 0;
            if (first && got >= 3 && block[0] == 0xEF && block[1] == 0xBB && block[2] == 0xBF)
                i = 3; /* jq's parser drops a BOM at the start */
            first = 0;
            if (s->odd_at < 0) {
                for (; i < got; i++) {
                    unsigned char c = block[i];
                    if (s->state == STRING && !s->hashing) { /* the common run: plain bytes */
                        while (i < got && block[i] != '"' && block[i] != '\\' && block[i] >= 0x20)
                            i++;
                        if (i == got) break;
                        c = block[i];
                    } else if (s->state == NUMBER && (s->number == N_INT || s->number == N_FRAC)
                               && c >= '0' && c <= '9') { /* a run of digits */
                        size_t j = i;
                        while (j < got && block[j] >= '0' && block[j] <= '9') j++;
                        s->token += (long long)(j - i);
                        if (s->token > MAX_NUMBER) {
                            s->odd_at = offset + (long long)i;
                            break;
                        }
                        i = j - 1;
                        continue;
                    } else if (c == ' ' && s->state <= TOP) { /* the grammar's states take spaces */
                        continue;
                    }
                    if (!step(s, c, offset + (long long)i)) {
                        s->odd_at = offset + (long long)i;
                        break;
                    }
                }
            }
            offset += (long long)got;
            if (s->odd_at >= 0) break; /* not vouched for: the rest tells nothing */
        }
        if (ferror(file)) failed = 1;
        fclose(file);
    }
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    for (int d = 0; d <= key_depth; d++) {
        free(keys[d].hash);
        free(keys[d].generation);
    }
    PyMem_Free(keys);
    if (failed) {
        PyMem_Free(s);
        PyMem_Free(block);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (s->odd_at < 0) { /* the end of the text: a number or literal left open */
        if (s->state == NUMBER && (s->number == N_ZERO || s->number == N_INT ||
                                   s->number == N_FRAC || s->number == N_EXP))
            value_done(s, offset - 1, 1);
        if (s->state != TOP)
            s->odd_at = offset;
    }
    PyObject *result = Py_BuildValue(
        "(OLCLLL)", s->odd_at < 0 ? Py_True : Py_False, s->documents,
        s->first_kind ? s->first_kind : '-', s->biggest, s->odd_at, s->repeated_at);
    PyMem_Free(s);
    PyMem_Free(block);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(path, key_depth) -> (vouched, documents, first_kind, biggest, odd_at, repeated_at): "
     "a JSON file's documents as jq's reader meets them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_docscan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__docscan(void) { return PyModule_Create(&module); }
