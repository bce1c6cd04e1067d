#ifndef NEWSSTAND_CNCURSESW_SHIM_H
#define NEWSSTAND_CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags: ask for the wide-character API here.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <wchar.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <pty.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Macros built from NCURSES_BITS, KEY_F(n), the mouse masks and the C globals do not
// import into Swift; these functions expose them.

static inline attr_t nsc_a_normal(void) { return A_NORMAL; }
static inline attr_t nsc_a_bold(void) { return A_BOLD; }
static inline attr_t nsc_a_dim(void) { return A_DIM; }
static inline attr_t nsc_a_italic(void) { return A_ITALIC; }
static inline attr_t nsc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t nsc_a_reverse(void) { return A_REVERSE; }
static inline attr_t nsc_a_standout(void) { return A_STANDOUT; }
static inline attr_t nsc_a_blink(void) { return A_BLINK; }
static inline attr_t nsc_a_invis(void) { return A_INVIS; }
static inline attr_t nsc_color_pair(int n) { return (attr_t)COLOR_PAIR(n); }

static inline int nsc_key_f(int n) { return KEY_F(n); }
static inline int nsc_key_code_yes(void) { return KEY_CODE_YES; }

static inline mmask_t nsc_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t nsc_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t nsc_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t nsc_button2_clicked(void) { return BUTTON2_CLICKED; }
static inline mmask_t nsc_button3_clicked(void) { return BUTTON3_CLICKED; }
static inline mmask_t nsc_button2_pressed(void) { return BUTTON2_PRESSED; }
static inline mmask_t nsc_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t nsc_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t nsc_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t nsc_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t nsc_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }

static inline WINDOW *nsc_stdscr(void) { return stdscr; }
static inline WINDOW *nsc_curscr(void) { return curscr; }
static inline int nsc_lines(void) { return LINES; }
static inline int nsc_cols(void) { return COLS; }
static inline int nsc_colors(void) { return COLORS; }
static inline int nsc_color_pairs(void) { return COLOR_PAIRS; }
static inline void nsc_getmaxyx(WINDOW *win, int *y, int *x) { int yy, xx; getmaxyx(win, yy, xx); *y = yy; *x = xx; }

// Fills a cchar_t: pairs above 255 go through the opts pointer (COLOR_PAIR keeps 8 bits).
static inline int nsc_setcchar(cchar_t *cell, const wchar_t *text, attr_t attrs, int pair) {
    return setcchar(cell, text, attrs, 0, &pair);
}

// ioctl is variadic: these set and read a terminal's size in cells.
static inline int nsc_set_window_size(int fd, unsigned short rows, unsigned short cols) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = rows;
    size.ws_col = cols;
    return ioctl(fd, TIOCSWINSZ, &size);
}

// A pseudo-terminal pair (tests drive the backend through one). 0 on success.
static inline int nsc_open_pty(int *master, int *slave, unsigned short rows, unsigned short cols) {
    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_row = rows;
    size.ws_col = cols;
    return openpty(master, slave, NULL, NULL, &size);
}

// The `colors` capability of a terminfo entry (-1 when the entry is unknown), loaded and
// released without touching the screen.
static inline int nsc_terminfo_colors(const char *term) {
    int error = 0;
    TERMINAL *saved = cur_term;
    if (setupterm(term, -1, &error) != OK) { set_curterm(saved); return -1; }
    int colors = tigetnum("colors");
    TERMINAL *loaded = cur_term;
    set_curterm(saved);
    del_curterm(loaded);
    return colors;
}

static inline int nsc_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

static inline int nsc_is_utf8_locale(void) {
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL) return 0;
    return (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't')
        && (codeset[2] == 'F' || codeset[2] == 'f');
}

// Signals are forwarded as one byte each to a pipe that a thread reads, so the work done
// on a signal (restoring the terminal, saving state) runs outside the signal handler.
// A real handler (not SIG_IGN) also means spawned children start with default dispositions.
static int nsc_signal_pipe_fd = -1;
static void nsc_signal_forward(int sig) {
    int saved = errno;
    unsigned char byte = (unsigned char)sig;
    if (nsc_signal_pipe_fd >= 0) { ssize_t ignored = write(nsc_signal_pipe_fd, &byte, 1); (void)ignored; }
    errno = saved;
}
static inline int nsc_forward_signal(int sig, int pipe_write_fd) {
    nsc_signal_pipe_fd = pipe_write_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = nsc_signal_forward;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(sig, &action, NULL);
}
#endif
