/* A kallsyms file's symbols as perf 6.1 loads them for the kernel
 * (__dso__load_kallsyms, maps__split_kallsyms): see symbols.h. */
#include "symtab_priv.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KSYM_NAME_LEN 512

/* perf's io__get_hex: the hex digits from here (at least one), then the
 * character that ended them, which is consumed; -2 when there is no
 * digit, -1 at the end of the file. */
static int get_hex(FILE *f, uint64_t *v)
{
	int ch, n = 0;

	*v = 0;
	for (;;) {
		ch = getc(f);
		if (ch >= '0' && ch <= '9')
			*v = *v << 4 | (uint64_t)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			*v = *v << 4 | (uint64_t)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			*v = *v << 4 | (uint64_t)(ch - 'A' + 10);
		else
			return n ? ch : ch < 0 ? -1 : -2;
		n++;
	}
}

static void read_to_eol(FILE *f)
{
	int ch;

	do
		ch = getc(f);
	while (ch >= 0 && ch != '\n');
}

/* perf's symbol_type__filter */
static int kept(char type)
{
	char t = (char)(type >= 'a' && type <= 'z' ? type - 32 : type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static uint8_t binding(char type)
{
	return type == 'W' ? STB_WEAK : type >= 'A' && type <= 'Z' ? STB_GLOBAL : STB_LOCAL;
}

static int add(struct ptd_symtab *t, uint64_t start, const char *name, size_t len, uint8_t bind)
{
	char *ns;

	if (t->n == t->cap && ptd_symset_reserve(t, t->cap ? t->cap : 1024))
		return -1;
	if (t->strsz + len + 1 >= UINT32_MAX / 2 || !(ns = realloc(t->strs, t->strsz + len + 1)))
		return -1;
	t->strs = ns;
	memcpy(t->strs + t->strsz, name, len);
	t->strs[t->strsz + len] = 0;
	ptd_symset_insert(t, start, start, (uint32_t)t->strsz, bind);
	t->strsz += len + 1;
	return 0;
}

/* maps__split_kallsyms with no module maps: module symbols ("NAME\t[MOD]")
 * and x86_64's entry trampoline go */
static int not_kernel(const char *name)
{
	return strchr(name, '\t') || !strcmp(name, "__entry_SYSCALL_64_trampoline");
}

int ptd_symtab_load_kallsyms(const char *path, struct ptd_symtab **out, struct ptd_err *err)
{
	struct ptd_symtab *t = calloc(1, sizeof(*t));
	char name[KSYM_NAME_LEN + 2];
	FILE *f;
	int rc = 0;

	*out = NULL;
	if (!t)
		return ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
	t->kallsyms = 1;
	t->full = 1;
	f = fopen(path, "r");
	if (!f) {
		rc = ptd_err_set(err, PTD_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	/* kallsyms__parse: "ADDR TYPE NAME\n", anything else skipped to the
	 * end of its line */
	while (!rc) {
		uint64_t start;
		size_t i;
		int ch, type;

		ch = get_hex(f, &start);
		if (ch == -1)
			break;
		if (ch != ' ') {
			read_to_eol(f);
			continue;
		}
		type = getc(f);
		if (getc(f) != ' ') {
			read_to_eol(f);
			continue;
		}
		for (i = 0; i < KSYM_NAME_LEN + 1; i++) {
			ch = getc(f);
			if (ch < 0 || ch == '\n')
				break;
			name[i] = (char)ch;
		}
		name[i] = 0;
		/* kallsyms__get_function_start's _text and _stext: the first of
		 * a function or absolute type */
		if (type == 'T' || type == 't' || type == 'W' || type == 'w' || type == 'A') {
			if (!t->has_text && !strcmp(name, "_text"))
				t->has_text = 1, t->text = start;
			if (!t->has_stext && !strcmp(name, "_stext"))
				t->has_stext = 1, t->stext = start;
		}
		if (kept((char)type) && name[0] != '$' && add(t, start, name, i, binding((char)type)))
			rc = ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
	}
	if (!rc && ferror(f))
		rc = ptd_err_set(err, PTD_E_IO, "%s: read error", path);
	fclose(f);
	if (!rc && ptd_symset_fixup(t))
		rc = ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
	if (!rc) {
		ptd_symset_drop(t, not_kernel);
		if (ptd_symset_index(t))
			rc = ptd_err_set(err, PTD_E_NOMEM, "%s: out of memory", path);
	}
out:
	if (rc) {
		ptd_symtab_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int ptd_symtab_kallsyms_info(const struct ptd_symtab *t, struct ptd_kallsyms_info *ki)
{
	if (!t->kallsyms)
		return -1;
	ki->has_text = t->has_text;
	ki->text = t->text;
	ki->has_stext = t->has_stext;
	ki->stext = t->stext;
	ki->nsyms = t->n;
	ki->first = t->n ? t->syms[0].start : 0;
	ki->end = t->n ? t->syms[t->n - 1].end : 0;
	return 0;
}
