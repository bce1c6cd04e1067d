#ifndef NEWSSTAND_CNCURSESW_SHIM_H
#define NEWSSTAND_CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags: ask for the wide-character API here.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#endif
