/* The synthetic AUX recording of tests/gen_aux.c, for unit tests. */
#ifndef PTD_TESTS_SYNTH_AUX_H
#define PTD_TESTS_SYNTH_AUX_H

/* Write it to path; 0 on success, -1 with a message on stderr. */
int ptd_test_write_aux(const char *path);

#endif
