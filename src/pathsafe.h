/* Paths taken from a recording (MMAP2 file names, build ids, an ELF file's
 * .gnu_debuglink) are only looked up under the roots the user configured:
 * --symfs DIR and the build-id cache.  A recorded name such as
 * "/../../home/x/.ssh/id_rsa", or a symbolic link inside a root that points
 * out of it, must not make ptdecode read a file outside that root.
 *
 * Files found are only read (mapped or read with open(O_RDONLY)), never
 * written to or executed. */
#ifndef PTD_PATHSAFE_H
#define PTD_PATHSAFE_H

/* Whether path names an existing regular file whose real location (all
 * symbolic links and "." / ".." resolved) lies inside root's real
 * location.  root NULL or "" or "/": any regular file.  Returns 1 or 0. */
int ptd_path_regular_within(const char *root, const char *path);

#endif
