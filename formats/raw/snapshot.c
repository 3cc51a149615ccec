/* OpenCSD snapshot directories: see snapshot.h. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "formats/raw/snapshot.h"

#define INI_MAX_BYTES (1u << 20)
#define ITEMS_MAX 4096
#define FIELD_MAX 255

/* One .ini file being parsed. */
struct ini {
	const char *name;      /* for messages: the file name in the directory */
	unsigned line;
	char section[FIELD_MAX + 1];
};

static int ini_err(struct ptd_err *err, const struct ini *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int ini_err(struct ptd_err *err, const struct ini *in, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ptd_err_set(err, PTD_E_FORMAT, "%s:%u: %s", in->name, in->line, msg);
}

/* "dir/name" in a new string, or NULL. */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = 0;
	return s;
}

/* Strip one pair of surrounding quotes. */
static char *unquote(char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		s[n - 1] = 0;
		s++;
	}
	return s;
}

/* A number in 0x hex or decimal filling the whole string. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end || end == s)
		return -1;
	return 0;
}

static void *grow(void *arr, size_t n, size_t elsize)
{
	if (n >= ITEMS_MAX)
		return NULL;
	return realloc(arr, (n + 1) * elsize);
}

/* A file name from the snapshot: relative, no ".." component. */
static int check_rel_path(const char *p)
{
	const char *c = p;

	if (!*p || *p == '/')
		return -1;
	while (*c) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return -1;
		c += n;
		if (*c == '/')
			c++;
	}
	return 0;
}

/* Read the whole of dir/name (at most INI_MAX_BYTES) as a string. */
static int read_text(const char *dir, const char *name, char **out, struct ptd_err *err)
{
	char *path = NULL, *buf = NULL;
	FILE *f = NULL;
	size_t n;
	int rc = 0;

	if (check_rel_path(name))
		return ptd_err_set(err, PTD_E_FORMAT, "%s: not a file name inside the snapshot directory", name);
	path = join(dir, name);
	if (!path)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	f = fopen(path, "rb");
	if (!f) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	buf = malloc(INI_MAX_BYTES + 1);
	if (!buf) {
		rc = ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		goto out;
	}
	n = fread(buf, 1, INI_MAX_BYTES + 1, f);
	if (ferror(f)) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (n > INI_MAX_BYTES) {
		rc = ptd_err_set(err, PTD_E_LIMIT, "%s: larger than %u bytes", path, INI_MAX_BYTES);
		goto out;
	}
	if (memchr(buf, 0, n)) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "%s: contains a NUL byte: not a text file", path);
		goto out;
	}
	buf[n] = 0;
	*out = buf;
	buf = NULL;
out:
	if (f)
		fclose(f);
	free(buf);
	free(path);
	return rc;
}

typedef int (*ini_fn)(void *ctx, struct ini *in, const char *key, char *value, struct ptd_err *err);

/* Parse text line by line: comments (';', '#') and CR dropped, "[section]"
 * headers, "key=value" definitions passed to fn (section_fn, when set, is
 * told of each header with key NULL). */
static int ini_parse(char *text, struct ini *in, ini_fn fn, void *ctx, struct ptd_err *err)
{
	char *line = text, *next;
	int rc;

	in->section[0] = 0;
	in->line = 0;
	for (; line; line = next) {
		char *c, *eq, *key, *value;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		in->line++;
		line[strcspn(line, "\r;#")] = 0;
		c = trim(line);
		if (!*c)
			continue;
		if (*c == '[') {
			char *close = strchr(c, ']');

			if (!close || close[1])
				return ini_err(err, in, "malformed section header '%s'", c);
			*close = 0;
			c = trim(c + 1);
			if (!*c || strlen(c) > FIELD_MAX)
				return ini_err(err, in, "bad section name '%s'", c);
			strcpy(in->section, c);
			rc = fn(ctx, in, NULL, NULL, err);
			if (rc)
				return rc;
			continue;
		}
		eq = strchr(c, '=');
		if (!eq)
			return ini_err(err, in, "'%s' is not key=value", c);
		*eq = 0;
		key = trim(c);
		value = unquote(trim(eq + 1));
		if (!*key || strlen(key) > FIELD_MAX || strlen(value) > FIELD_MAX)
			return ini_err(err, in, "empty or over-long key or value '%s'", key);
		if (!in->section[0])
			return ini_err(err, in, "definition of '%s' has no section header", key);
		rc = fn(ctx, in, key, value, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int set_once(char **slot, const char *value, struct ini *in, const char *key, struct ptd_err *err)
{
	if (*slot)
		return ini_err(err, in, "duplicate key '%s'", key);
	*slot = strdup(value);
	if (!*slot)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	return 0;
}

/* ---- device files ------------------------------------------------------ */

struct dev_ctx {
	struct ptd_snap_device *dev;
	struct ptd_snap_dump *dump;    /* the [dump] being read */
	unsigned dump_seen;            /* bits: file, address, length, offset, space */
	unsigned dump_line;
};

static int end_dump(struct dev_ctx *dc, struct ini *in, struct ptd_err *err)
{
	if (!dc->dump)
		return 0;
	in->line = dc->dump_line;
	if (!(dc->dump_seen & 1))
		return ini_err(err, in, "dump section without a file%s", "");
	if (!(dc->dump_seen & 2))
		return ini_err(err, in, "dump section without an address%s", "");
	if (check_rel_path(dc->dump->file))
		return ini_err(err, in, "dump file '%s' is not a file name inside the snapshot directory",
			       dc->dump->file);
	if (dc->dump->length && dc->dump->address + dc->dump->length - 1 < dc->dump->address)
		return ini_err(err, in, "dump of %s wraps the address space", dc->dump->file);
	dc->dump = NULL;
	return 0;
}

static int dev_line(void *ctx, struct ini *in, const char *key, char *value, struct ptd_err *err)
{
	struct dev_ctx *dc = ctx;
	struct ptd_snap_device *d = dc->dev;
	unsigned saved = in->line;
	uint64_t v;
	int rc;

	if (!key) {
		rc = end_dump(dc, in, err);
		in->line = saved;
		if (rc)
			return rc;
		if (!strncmp(in->section, "dump", 4)) {
			struct ptd_snap_dump *nd = grow(d->dumps, d->ndumps, sizeof(*nd));

			if (!nd)
				return d->ndumps >= ITEMS_MAX ? ini_err(err, in, "more than 4096 dumps%s", "")
							      : ptd_err_set(err, PTD_E_NOMEM, "out of memory");
			d->dumps = nd;
			dc->dump = &nd[d->ndumps++];
			memset(dc->dump, 0, sizeof(*dc->dump));
			dc->dump_seen = 0;
			dc->dump_line = in->line;
		}
		return 0;
	}
	if (!strcmp(in->section, "device")) {
		if (!strcmp(key, "name"))
			return set_once(&d->name, value, in, key, err);
		if (!strcmp(key, "class"))
			return set_once(&d->cls, value, in, key, err);
		if (!strcmp(key, "type"))
			return set_once(&d->type, value, in, key, err);
		return 0;
	}
	if (!strcmp(in->section, "regs")) {
		struct ptd_snap_reg *nr;
		char *paren = strchr(key, '(');
		size_t i;

		if (parse_u64(value, &v))
			return ini_err(err, in, "register value '%s' is not a number", value);
		if (paren)
			*paren = 0;
		key = trim((char *)key);
		if (!*key)
			return ini_err(err, in, "register without a name%s", "");
		for (i = 0; i < d->nregs; i++)
			if (!strcasecmp(d->regs[i].name, key))
				return ini_err(err, in, "duplicate register '%s'", key);
		nr = grow(d->regs, d->nregs, sizeof(*nr));
		if (!nr)
			return d->nregs >= ITEMS_MAX ? ini_err(err, in, "more than 4096 registers%s", "")
						     : ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		d->regs = nr;
		nr[d->nregs].name = strdup(key);
		if (!nr[d->nregs].name)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		nr[d->nregs++].value = v;
		return 0;
	}
	if (dc->dump) {
		static const char *const keys[] = { "file", "address", "length", "offset", "space" };
		unsigned k;

		for (k = 0; k < 5 && strcmp(key, keys[k]); k++)
			;
		if (k == 5)
			return ini_err(err, in, "unknown dump section key '%s'", key);
		if (dc->dump_seen & (1u << k))
			return ini_err(err, in, "duplicate key '%s'", key);
		dc->dump_seen |= 1u << k;
		if (k == 0)
			return set_once(&dc->dump->file, value, in, key, err);
		if (k == 4) {
			if (strlen(value) >= sizeof(dc->dump->space))
				return ini_err(err, in, "unknown memory space '%s'", value);
			strcpy(dc->dump->space, value);
			return 0;
		}
		if (parse_u64(value, &v))
			return ini_err(err, in, "'%s' is not a number", value);
		if (k == 1)
			dc->dump->address = v;
		else if (k == 2)
			dc->dump->length = v;
		else
			dc->dump->offset = v;
	}
	return 0;
}

static int read_device(struct ptd_snapshot *ss, const char *file, struct ptd_err *err)
{
	struct ptd_snap_device *nd, *d;
	struct dev_ctx dc = { 0 };
	struct ini in = { file, 0, "" };
	char *text = NULL;
	size_t i;
	int rc;

	nd = grow(ss->devices, ss->ndevices, sizeof(*nd));
	if (!nd)
		return ss->ndevices >= ITEMS_MAX ? ptd_err_set(err, PTD_E_LIMIT, "more than 4096 devices")
						 : ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	ss->devices = nd;
	d = &nd[ss->ndevices++];
	memset(d, 0, sizeof(*d));
	d->ini = strdup(file);
	if (!d->ini)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	rc = read_text(ss->dir, file, &text, err);
	if (rc)
		return rc;
	dc.dev = d;
	rc = ini_parse(text, &in, dev_line, &dc, err);
	if (!rc)
		rc = end_dump(&dc, &in, err);
	free(text);
	if (rc)
		return rc;
	in.line = 1;
	if (!d->name || !d->cls || !d->type)
		return ini_err(err, &in, "the [device] section needs name, class and type%s", "");
	for (i = 0; i + 1 < ss->ndevices; i++)
		if (!strcmp(ss->devices[i].name, d->name))
			return ini_err(err, &in, "a second device called '%s'", d->name);
	return 0;
}

/* ---- snapshot.ini and trace.ini ---------------------------------------- */

struct top_ctx {
	struct ptd_snapshot *ss;
	char *metadata;
	char **devfiles;
	size_t ndevfiles;
	int version_seen;
};

static int top_line(void *ctx, struct ini *in, const char *key, char *value, struct ptd_err *err)
{
	struct top_ctx *tc = ctx;

	if (!key)
		return 0;
	if (!strcmp(in->section, "snapshot") && !strcmp(key, "version")) {
		if (tc->version_seen++)
			return ini_err(err, in, "duplicate key '%s'", key);
		if (strcmp(value, "1.0") && strcmp(value, "1"))
			return ini_err(err, in, "snapshot version '%s' is not 1.0", value);
	} else if (!strcmp(in->section, "device_list")) {
		char **nf = grow(tc->devfiles, tc->ndevfiles, sizeof(*nf));

		if (!nf)
			return tc->ndevfiles >= ITEMS_MAX ? ini_err(err, in, "more than 4096 devices%s", "")
							  : ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		tc->devfiles = nf;
		nf[tc->ndevfiles] = strdup(value);
		if (!nf[tc->ndevfiles])
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		tc->ndevfiles++;
	} else if (!strcmp(in->section, "trace") && !strcmp(key, "metadata")) {
		return set_once(&tc->metadata, value, in, key, err);
	}
	return 0;
}

struct trace_ctx {
	struct ptd_snapshot *ss;
	char *buffers;                  /* the buffers= list */
	struct ptd_snap_buffer *cur;    /* the [bufferN] named in the list being read */
};

static int add_pair(struct ptd_snap_pair **arr, size_t *n, const char *k, const char *v,
		    struct ini *in, struct ptd_err *err)
{
	struct ptd_snap_pair *np = grow(*arr, *n, sizeof(*np));

	if (!np)
		return *n >= ITEMS_MAX ? ini_err(err, in, "more than 4096 entries%s", "")
				       : ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	*arr = np;
	np[*n].key = strdup(k);
	np[*n].value = strdup(v);
	(*n)++;
	if (!np[*n - 1].key || !np[*n - 1].value)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	return 0;
}

static int trace_line(void *ctx, struct ini *in, const char *key, char *value, struct ptd_err *err)
{
	struct trace_ctx *tc = ctx;
	struct ptd_snapshot *ss = tc->ss;
	size_t i;

	if (!key) {
		tc->cur = NULL;
		/* a buffer section is one the buffers= list names (it comes first) */
		for (i = 0; i < ss->nbuffers; i++)
			if (!strcmp(ss->buffers[i].name, in->section))
				tc->cur = &ss->buffers[i];
		return 0;
	}
	if (!strcmp(in->section, "trace_buffers") && !strcmp(key, "buffers")) {
		char *tok, *save = NULL;

		if (tc->buffers)
			return ini_err(err, in, "duplicate key '%s'", key);
		tc->buffers = strdup(value);
		if (!tc->buffers)
			return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		for (tok = strtok_r(value, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			struct ptd_snap_buffer *nb = grow(ss->buffers, ss->nbuffers, sizeof(*nb));

			tok = trim(tok);
			if (!*tok)
				return ini_err(err, in, "empty buffer name in '%s'", tc->buffers);
			if (!nb)
				return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
			ss->buffers = nb;
			memset(&nb[ss->nbuffers], 0, sizeof(*nb));
			/* until its section gives the name, the list's name stands in */
			nb[ss->nbuffers].name = strdup(tok);
			if (!nb[ss->nbuffers++].name)
				return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		}
		return 0;
	}
	if (tc->cur) {
		if (!strcmp(key, "name")) {
			/* the section's name= replaces the list's key */
			if (strcmp(tc->cur->name, in->section))
				return ini_err(err, in, "duplicate key '%s'", key);
			free(tc->cur->name);
			tc->cur->name = strdup(value);
			return tc->cur->name ? 0 : ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		}
		if (!strcmp(key, "file")) {
			if (check_rel_path(value))
				return ini_err(err, in, "buffer file '%s' is not a file name inside the snapshot directory",
					       value);
			return set_once(&tc->cur->file, value, in, key, err);
		}
		if (!strcmp(key, "format"))
			return set_once(&tc->cur->format, value, in, key, err);
		return 0;
	}
	if (!strcmp(in->section, "source_buffers"))
		return add_pair(&ss->source_buffers, &ss->nsource_buffers, key, value, in, err);
	if (!strcmp(in->section, "core_trace_sources"))
		return add_pair(&ss->core_sources, &ss->ncore_sources, key, value, in, err);
	return 0;
}

int ptd_snapshot_read(struct ptd_snapshot **out, const char *dir, struct ptd_err *err)
{
	struct ptd_snapshot *ss;
	struct top_ctx top = { 0 };
	struct trace_ctx trc = { 0 };
	struct ini in = { "snapshot.ini", 0, "" };
	struct stat st;
	char *text = NULL;
	size_t i;
	int rc;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return ptd_err_set(err, PTD_E_IO, "%s: not a snapshot directory", dir);
	ss = calloc(1, sizeof(*ss));
	if (!ss || !(ss->dir = strdup(dir))) {
		free(ss);
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	}
	top.ss = ss;
	rc = read_text(dir, "snapshot.ini", &text, err);
	if (!rc)
		rc = ini_parse(text, &in, top_line, &top, err);
	free(text);
	text = NULL;
	if (rc)
		goto out;
	if (!top.version_seen) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "snapshot.ini: no [snapshot] version");
		goto out;
	}
	for (i = 0; i < top.ndevfiles && !rc; i++)
		rc = read_device(ss, top.devfiles[i], err);
	if (rc)
		goto out;
	if (!top.metadata) {
		rc = ptd_err_set(err, PTD_E_FORMAT, "snapshot.ini: no [trace] metadata (trace.ini)");
		goto out;
	}
	in.name = top.metadata;
	trc.ss = ss;
	rc = read_text(dir, top.metadata, &text, err);
	if (!rc)
		rc = ini_parse(text, &in, trace_line, &trc, err);
	if (rc)
		goto out;
	for (i = 0; i < ss->nbuffers; i++)
		if (!ss->buffers[i].file || !ss->buffers[i].format) {
			rc = ptd_err_set(err, PTD_E_FORMAT, "%s: buffer %s has no file or no format",
					 top.metadata, ss->buffers[i].name);
			goto out;
		}
out:
	free(text);
	free(trc.buffers);
	free(top.metadata);
	for (i = 0; i < top.ndevfiles; i++)
		free(top.devfiles[i]);
	free(top.devfiles);
	if (rc) {
		ptd_snapshot_free(ss);
		return ptd_err_append(err, "snapshot %s", dir);
	}
	*out = ss;
	return 0;
}

static void free_pairs(struct ptd_snap_pair *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].key);
		free(p[i].value);
	}
	free(p);
}

void ptd_snapshot_free(struct ptd_snapshot *ss)
{
	size_t i, j;

	if (!ss)
		return;
	for (i = 0; i < ss->ndevices; i++) {
		struct ptd_snap_device *d = &ss->devices[i];

		free(d->ini);
		free(d->name);
		free(d->cls);
		free(d->type);
		for (j = 0; j < d->nregs; j++)
			free(d->regs[j].name);
		free(d->regs);
		for (j = 0; j < d->ndumps; j++)
			free(d->dumps[j].file);
		free(d->dumps);
	}
	free(ss->devices);
	for (i = 0; i < ss->nbuffers; i++) {
		free(ss->buffers[i].name);
		free(ss->buffers[i].file);
		free(ss->buffers[i].format);
	}
	free(ss->buffers);
	free_pairs(ss->source_buffers, ss->nsource_buffers);
	free_pairs(ss->core_sources, ss->ncore_sources);
	free(ss->dir);
	free(ss);
}

const struct ptd_snap_device *ptd_snapshot_device(const struct ptd_snapshot *ss, const char *name)
{
	size_t i;

	for (i = 0; i < ss->ndevices; i++)
		if (!strcmp(ss->devices[i].name, name))
			return &ss->devices[i];
	return NULL;
}

int ptd_snap_reg(const struct ptd_snap_device *dev, const char *name, uint64_t *value)
{
	size_t i;

	for (i = 0; i < dev->nregs; i++)
		if (!strcasecmp(dev->regs[i].name, name)) {
			*value = dev->regs[i].value;
			return 1;
		}
	return 0;
}

const struct ptd_snap_buffer *ptd_snapshot_buffer(const struct ptd_snapshot *ss, const char *name)
{
	size_t i;

	for (i = 0; i < ss->nbuffers; i++)
		if (!strcmp(ss->buffers[i].name, name))
			return &ss->buffers[i];
	return NULL;
}

char *ptd_snapshot_path(const struct ptd_snapshot *ss, const char *file)
{
	return join(ss->dir, file);
}
