/* Snapshot mode: see snapdecode.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csdecode.h"
#include "decoders/decoder.h"
#include "formats/raw/snapshot.h"
#include "image.h"
#include "snapdecode.h"

#define MAX_SRC 256
#define TRACE_MAX (1ull << 30)

/* perf's CS_ETM metadata words and backend settings built from a snapshot */
struct snap_meta {
	uint64_t *priv;
	size_t npriv;
	struct ptd_decoder_opt opts[1 + 2 * MAX_SRC];
	char keys[2 * MAX_SRC][24];
	size_t nopts;
	const struct ptd_snap_device *cores[MAX_SRC];
	size_t nsrc;
};

static int cmp_pair_key(const void *a, const void *b)
{
	return strcmp((*(const struct ptd_snap_pair *const *)a)->key,
		      (*(const struct ptd_snap_pair *const *)b)->key);
}

/* Register name of the snapshot (or its default when dflt is not NULL). */
static int reg32(const struct ptd_snap_device *dev, const char *name, const uint32_t *dflt,
		 uint64_t *out, struct ptd_err *err)
{
	uint64_t v;

	if (!ptd_snap_reg(dev, name, &v)) {
		if (!dflt)
			return ptd_err_set(err, PTD_E_FORMAT, "%s: trace source %s has no register %s",
					   dev->ini, dev->name, name);
		v = *dflt;
	}
	if (v > UINT32_MAX)
		return ptd_err_set(err, PTD_E_FORMAT, "%s: register %s of %s is wider than 32 bits",
				   dev->ini, name, dev->name);
	*out = v;
	return 0;
}

static int add_source(struct snap_meta *m, const struct ptd_snap_device *src,
		      const struct ptd_snap_device *core, struct ptd_err *err)
{
	static const uint32_t idr1 = 0x4100F403u, devarch = 0x47705A13u, zero = 0;
	char proto[16];
	uint64_t *w;
	size_t len = strcspn(src->type, ".");
	int ptm = 0, rc = 0, i = 0;

	if (len >= sizeof(proto))
		len = sizeof(proto) - 1;
	memcpy(proto, src->type, len);
	proto[len] = 0;
	w = realloc(m->priv, (m->npriv + 11) * sizeof(*w));
	if (!w)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	m->priv = w;
	w += m->npriv;
	w[1] = m->nsrc;    /* the CPU: the source's index */
	if (!strcmp(proto, "ETM3") || !strcmp(proto, "PTM1") || !strcmp(proto, "PFT1")) {
		ptm = strcmp(proto, "ETM3") != 0;
		w[0] = 0x3030303030303030ULL;
		w[2] = 4;
		rc = reg32(src, "ETMCR", NULL, &w[3], err);
		if (!rc)
			rc = reg32(src, "ETMTRACEIDR", NULL, &w[4], err);
		if (!rc)
			rc = reg32(src, "ETMCCER", NULL, &w[5], err);
		if (!rc)
			rc = reg32(src, "ETMIDR", NULL, &w[6], err);
	} else if (!strcmp(proto, "ETM4") || !strcmp(proto, "ETE")) {
		int ete = !strcmp(proto, "ETE");

		w[0] = ete ? 0x5050505050505050ULL : 0x4040404040404040ULL;
		w[2] = ete ? 8 : 7;
		rc = reg32(src, "TRCCONFIGR", NULL, &w[3], err);
		if (!rc)
			rc = reg32(src, "TRCTRACEIDR", NULL, &w[4], err);
		if (!rc)
			rc = reg32(src, "TRCIDR0", NULL, &w[5], err);
		if (!rc)
			rc = reg32(src, "TRCIDR1", &idr1, &w[6], err);
		if (!rc)
			rc = reg32(src, "TRCIDR2", NULL, &w[7], err);
		if (!rc)
			rc = reg32(src, "TRCIDR8", &zero, &w[8], err);
		if (!rc)
			rc = reg32(src, "TRCAUTHSTATUS", &zero, &w[9], err);
		if (!rc && ete)
			rc = reg32(src, "TRCDEVARCH", &devarch, &w[10], err);
	} else {
		fprintf(stderr, "ptdecode: warning: %s: trace source %s of type %s is not decoded\n",
			src->ini, src->name, src->type);
		return 0;
	}
	if (rc)
		return rc;
	m->npriv += 3 + (size_t)w[2];
	snprintf(m->keys[2 * m->nsrc], sizeof(m->keys[0]), "core.%zu", m->nsrc);
	m->opts[m->nopts].key = m->keys[2 * m->nsrc];
	m->opts[m->nopts++].value = core->type;
	if (ptm) {
		snprintf(m->keys[2 * m->nsrc + 1], sizeof(m->keys[0]), "ptm.%zu", m->nsrc);
		m->opts[m->nopts].key = m->keys[2 * m->nsrc + 1];
		m->opts[m->nopts++].value = "1";
	}
	m->cores[m->nsrc++] = core;
	(void)i;
	return 0;
}

/* The metadata of the sources writing into buffer buf, by source name. */
static int build_meta(struct snap_meta *m, const struct ptd_snapshot *ss,
		      const struct ptd_snap_buffer *buf, struct ptd_err *err)
{
	const struct ptd_snap_pair *sorted[4096];
	size_t i, j, n = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	m->priv = calloc(3, sizeof(*m->priv));
	if (!m->priv)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	m->npriv = 3;
	for (i = 0; i < ss->nsource_buffers && n < 4096; i++)
		if (!strcmp(ss->source_buffers[i].value, buf->name))
			sorted[n++] = &ss->source_buffers[i];
	qsort(sorted, n, sizeof(sorted[0]), cmp_pair_key);
	for (i = 0; i < n; i++) {
		const struct ptd_snap_device *src = ptd_snapshot_device(ss, sorted[i]->key), *core = NULL;

		if (!src)
			return ptd_err_set(err, PTD_E_FORMAT, "trace source %s has no device file", sorted[i]->key);
		for (j = 0; j < ss->ncore_sources && !core; j++)
			if (!strcmp(ss->core_sources[j].value, src->name))
				core = ptd_snapshot_device(ss, ss->core_sources[j].key);
		if (!core) {
			fprintf(stderr, "ptdecode: warning: trace source %s (%s) belongs to no core: "
				"not decoded\n", src->name, src->type);
			continue;
		}
		if (m->nsrc >= MAX_SRC)
			return ptd_err_set(err, PTD_E_LIMIT, "more than %d trace sources", MAX_SRC);
		rc = add_source(m, src, core, err);
		if (rc)
			return rc;
	}
	if (!m->nsrc)
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "buffer %s: no trace source to decode", buf->name);
	m->priv[0] = 1;
	m->priv[1] = m->nsrc;
	if (!strcmp(buf->format, "source_data"))
		m->opts[m->nopts].value = "raw";
	else if (!strcmp(buf->format, "dstream_coresight"))
		m->opts[m->nopts].value = "dstream";
	else if (!strcmp(buf->format, "coresight"))
		m->opts[m->nopts].value = "coresight";
	else
		return ptd_err_set(err, PTD_E_UNSUPPORTED, "buffer %s: unknown format '%s'", buf->name,
				   buf->format);
	m->opts[m->nopts++].key = "format";
	return 0;
}

/* The dumps of the decoded sources' cores, each file range once. */
static int build_image(struct ptd_image *im, const struct ptd_snapshot *ss, const struct snap_meta *m,
		       struct ptd_err *err)
{
	size_t i, j, k;

	for (i = 0; i < m->nsrc; i++) {
		const struct ptd_snap_device *core = m->cores[i];
		int seen = 0;

		for (k = 0; k < i; k++)
			seen |= m->cores[k] == core;
		if (seen)
			continue;
		for (j = 0; j < core->ndumps; j++) {
			const struct ptd_snap_dump *d = &core->dumps[j];
			struct ptd_err e2 = { 0 };
			char *path = ptd_snapshot_path(ss, d->file);
			int rc;

			if (!path)
				return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
			rc = ptd_image_add_file(im, path, d->offset, d->length, d->address, &e2);
			free(path);
			if (rc == -PTD_E_NOMEM || rc == -PTD_E_LIMIT)
				return ptd_err_set(err, -rc, "%s", e2.msg);
			if (rc)
				fprintf(stderr, "ptdecode: warning: %s: dump %s not used: %s\n", core->ini,
					d->file, e2.msg);
		}
	}
	return 0;
}

static int read_trace(const struct ptd_snapshot *ss, const struct ptd_snap_buffer *b, uint8_t **data,
		      size_t *size, struct ptd_err *err)
{
	char *path = ptd_snapshot_path(ss, b->file);
	struct stat st;
	FILE *f;
	int rc = 0;

	if (!path)
		return ptd_err_set(err, PTD_E_NOMEM, "out of memory");
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", path, f ? "not a regular file" : strerror(errno));
		goto out;
	}
	if ((uint64_t)st.st_size > TRACE_MAX) {
		rc = ptd_err_set(err, PTD_E_LIMIT, "%s: larger than 1 GiB", path);
		goto out;
	}
	*size = (size_t)st.st_size;
	*data = malloc(*size ? *size : 1);
	if (!*data) {
		rc = ptd_err_set(err, PTD_E_NOMEM, "out of memory");
		goto out;
	}
	if (fread(*data, 1, *size, f) != *size) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: short read", path);
		free(*data);
		*data = NULL;
	}
out:
	if (f)
		fclose(f);
	free(path);
	return rc;
}

int ptd_snap_decode(const struct ptd_snap_opts *o, FILE *out)
{
	const struct ptd_decoder_ops *ops;
	struct ptd_snapshot *ss = NULL;
	struct ptd_image *im = NULL;
	struct ptd_err err = { 0 };
	struct snap_meta meta;
	struct ptd_decoder_env env = { 0 };
	struct ptd_auxinfo info = { 0 };
	uint8_t *data = NULL;
	size_t size = 0;
	int rc, status = 2;

	memset(&meta, 0, sizeof(meta));
	if (ptd_cs_out_check(&o->out))
		return 1;
	ops = ptd_cs_backend();
	if (!ops)
		return 2;
	rc = ptd_snapshot_read(&ss, o->dir, &err);
	if (!rc && !ss->nbuffers)
		rc = ptd_err_set(&err, PTD_E_FORMAT, "snapshot %s: trace.ini names no buffer", o->dir);
	if (!rc)
		rc = build_meta(&meta, ss, &ss->buffers[0], &err);
	if (!rc)
		rc = ptd_image_new(&im, &err);
	if (!rc)
		rc = build_image(im, ss, &meta, &err);
	if (!rc)
		rc = read_trace(ss, &ss->buffers[0], &data, &size, &err);
	if (rc)
		goto out;
	info.type = ops->auxtrace_type;
	info.priv = meta.priv;
	info.npriv = meta.npriv;
	env.image = im;
	env.opts = meta.opts;
	env.nopts = meta.nopts;
	rc = ptd_cs_decode_print(&o->out, &info, &env, data, size, out, &err);
	if (rc < 0)
		goto out;
	status = 0;
out:
	if (status) {
		fflush(out);
		fprintf(stderr, "ptdecode: %s\n", err.msg[0] ? err.msg : ptd_strerror(rc));
	}
	free(data);
	free(meta.priv);
	ptd_image_free(im);
	ptd_snapshot_free(ss);
	if (!status && (fflush(out) || ferror(out))) {
		fprintf(stderr, "ptdecode: writing output failed\n");
		status = 2;
	}
	return status;
}
