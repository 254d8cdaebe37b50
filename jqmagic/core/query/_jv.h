/* libjq 1.8.2's jv as jv.h lays it out (16 bytes, passed by value), for the extensions that
 * call libjq through the addresses ctypes found (_jqmain.c, _jvbuild.c): they include no
 * header of jq's and link against nothing but Python. */
#ifndef JQMAGIC_JV_H
#define JQMAGIC_JV_H

typedef struct {
    unsigned char kind_flags;
    unsigned char pad_;
    unsigned short offset;
    int size;
    union { void *ptr; double number; } u;
} jv;

#endif
