/* The tiling search for keys of exactly NW words; included once per width by exact.c
 * (a C stand-in for a template, so the inner loops have constant trip counts). Each part is
 * a file of one job: the memo table, search states, pruning, counting, enumeration. */

#define FN2(name, n) name##_##n
#define FN1(name, n) FN2(name, n)
#define FN(name) FN1(name, NW)

#include "table_impl.h"
#include "state_impl.h"
#include "prune_impl.h"
#include "count_impl.h"
#include "enum_impl.h"

#undef FN
#undef FN1
#undef FN2
