/* The synthetic AUX recording of tests/gen_aux.c, for unit tests. */
#ifndef PTD_TESTS_SYNTH_AUX_H
#define PTD_TESTS_SYNTH_AUX_H

/* Write it to path; 0 on success, -1 with a message on stderr. */
int ptd_test_write_aux(const char *path);

/* The same, with the AUXTRACE index's entries in reverse order when
 * reversed (valid entries, as perf never orders them) */
int ptd_test_write_aux_index(const char *path, int reversed);

#endif
