/* cycprof: which function an address belongs to, as the shadow stack sees it. */
#ifndef CP_FUNCTIONS_H
#define CP_FUNCTIONS_H

#include "pub_tool_basics.h"

void cp_functions_init(void);
/* Entry address of the function containing a; a itself when no symbol
 * covers a, so that unknown code still gets a stable identity. */
Addr cp_function_of(Addr a);
/* The entry of the function whose symbol covers a, if any. */
Bool cp_function_named(Addr a, Addr* fn);
/* a is the first instruction of a function known to the debug info. */
Bool cp_is_function_entry(Addr a);
/* PLT stubs and the lazy-binding resolver: frames that only forward to the
 * real callee, which then takes their place on the shadow stack. */
Bool cp_is_trampoline(Addr fn);

#endif
