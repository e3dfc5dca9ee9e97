/* outfile: an output file written under a temporary name beside its target
 * ("PATH.tmp.OWNER.XXXXXX", base/tempname: registered so die*() removes it, and removed
 * by a later run of the same output if its process was killed) and renamed into place on commit: a failing or killed program never leaves a partial
 * file under the final name. outfile_open() first applies paths_check_target(): the
 * target is never an input and never a symlink, device node, FIFO, socket or folder
 * (exit 2), so `--out /dev/null` cannot replace /dev/null.
 *
 * Several outputs of one program are committed together or not at all:
 * outfile_commit_all() completes every file (flush, fsync, close) before it renames
 * any; a failure while completing removes them all. */
#ifndef PROBEXPAN_OUTFILE_H
#define PROBEXPAN_OUTFILE_H

#include <stdint.h>
#include <stdio.h>

typedef struct outfile outfile;

/* Checks the target and creates the temporary file (mode 0644). Dies on failure. */
outfile *outfile_open(const char *path);
FILE *outfile_stream(outfile *o);
const char *outfile_temp(const outfile *o);
/* Dies (exit 1) unless the target's file system has `bytes` free, saying how much
 * is needed and how much there is. */
void outfile_require_space(const outfile *o, uint64_t bytes);
/* Flush, fsync, close and rename; frees o. */
void outfile_commit(outfile *o);
/* Commits n files together: all are completed before the first rename; frees them. */
void outfile_commit_all(outfile *const *o, int n);

#endif
