/* The process ending: what it has mapped is left to its exit.
 *
 * On the bench's machine (a paravirtualized guest) munmap costs more than
 * the exit's teardown of the same mappings (bench/analysis.md, the
 * thirty-sixth round: W3's sixteen files 7% of a run, W2's tables' huge
 * region 2%).  The command line's main job says it is ending once its
 * work is done (ptd_script_run_opts.at_exit); the files (dsofiles.c) and
 * the tables' regions (hugemem.c) freed after that stay mapped, their
 * bookkeeping freed.  A program that goes on (the fuzz harness's loop,
 * the tests) never says so. */
#ifndef PTD_ENDING_H
#define PTD_ENDING_H

void ptd_ending_set(void);
int ptd_ending(void);   /* 1 once ptd_ending_set was called */

#endif
