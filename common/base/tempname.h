/* tempname: temporary files and folders whose name says which process owns them, and
 * the removal of those a process left behind when it could not clean up (SIGKILL, a
 * crash, a power cut).
 *
 * A name is PREFIX OWNER ".XXXXXX" (the X's from mkstemp/mkdtemp), OWNER being
 * "HOST-PID-START": HOST eight hex digits that identify this kernel boot and PID
 * namespace, PID the owner process and START its start time (clock ticks after boot,
 * from /proc/PID/stat), so a pid reused by another process is told apart from the owner.
 *
 * A temporary entry is stale when its owner ran on this host (same HOST) and is gone: no
 * process has its pid, or the one that has it started at another time. Creating a
 * temporary entry first removes the stale ones of the same PREFIX, so a later run of a
 * program cleans up after an earlier run of the same output that was killed. Only names
 * of exactly that form are considered, and only regular files and folders (never a
 * symlink) owned by the user running the program are removed; anything else is left. */
#ifndef PROBEXPAN_TEMPNAME_H
#define PROBEXPAN_TEMPNAME_H

/* Removes the stale entries of PREFIX (a path: folder part + start of the name, e.g.
 * "runs/x/corpus.mp.tmp."), saying so on stderr; returns how many were removed. */
int tempname_remove_stale(const char *prefix);

/* Remove the stale entries of PREFIX, then create a file (mode 0600, *fd open read-write)
 * or a folder (mode 0700) named PREFIX OWNER ".XXXXXX", registered with tempfile_register
 * / tempdir_register (error.h) so a dying program removes it. Return the malloc'd name,
 * or NULL with errno set when it cannot be created. */
char *tempname_create_file(const char *prefix, int *fd);
char *tempname_create_dir(const char *prefix);

/* The OWNER part of this process's temporary names (static storage). */
const char *tempname_owner(void);

#endif
