#ifndef NEWSSTAND_CSPAWN_SHIM_H
#define NEWSSTAND_CSPAWN_SHIM_H

#include <spawn.h>

// glibc ≥ 2.34 declares this only under _GNU_SOURCE, which Swift's Glibc module does not set:
// the PDF worker is spawned with no file of its parent's open.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

// The same for pipe2: a pipe whose ends are close-on-exec from the start, so no child
// spawned meanwhile by another thread inherits it.
extern int pipe2(int pipefd[2], int flags);

#endif
