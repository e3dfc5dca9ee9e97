/* tempname: owner-stamped temporary names and the removal of stale ones. */
#include "base/tempname.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"

/* Start time of process pid in clock ticks after boot (field 22 of /proc/PID/stat);
 * 0 when it cannot be read. */
static unsigned long long process_start(long pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
    if (!p) return 0;
    p++;
    for (int field = 2; field < 21 && p; field++) p = strchr(p + 1, ' '); /* to field 22 */
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

static uint32_t fnv1a(uint32_t h, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* This kernel boot and PID namespace, hashed: pids compare only within them. */
static uint32_t host_tag(void) {
    static uint32_t cached;
    if (cached) return cached;
    uint32_t h = 2166136261u;
    char buf[256];
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        h = fnv1a(h, buf, n);
    } else if (gethostname(buf, sizeof buf) == 0) {
        h = fnv1a(h, buf, strnlen(buf, sizeof buf));
    }
    ssize_t n = readlink("/proc/self/ns/pid", buf, sizeof buf);
    if (n > 0) h = fnv1a(h, buf, (size_t)n);
    return cached = h ? h : 1;
}

const char *tempname_owner(void) {
    static char owner[64];
    static pid_t of; /* recomputed in a forked child */
    if (of != getpid()) {
        of = getpid();
        snprintf(owner, sizeof owner, "%08x-%ld-%llu", host_tag(), (long)of, process_start((long)of));
    }
    return owner;
}

/* Parses NAME = OWNER ".XXXXXX" exactly; 1 when it has that form. */
static int parse_owner(const char *name, unsigned *host, long *pid, unsigned long long *start) {
    const char *p = name;
    for (int i = 0; i < 8; i++, p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return 0;
    *host = (unsigned)strtoul(name, NULL, 16);
    if (*p++ != '-' || *p < '1' || *p > '9') return 0;
    char *end;
    errno = 0;
    *pid = strtol(p, &end, 10);
    if (errno || *end != '-' || end[1] < '0' || end[1] > '9') return 0;
    p = end + 1;
    *start = strtoull(p, &end, 10);
    if (errno || *end != '.') return 0;
    p = end + 1;
    for (int i = 0; i < 6; i++, p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) return 0;
    return *p == 0;
}

/* The owner ran here and is gone (its pid is free, or taken by a later process). */
static int owner_gone(unsigned host, long pid, unsigned long long start) {
    if (host != host_tag()) return 0; /* another host or namespace: cannot tell */
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return 1;
    unsigned long long now = process_start(pid);
    return now != 0 && start != 0 && now != start;
}

int tempname_remove_stale(const char *prefix) {
    const char *slash = strrchr(prefix, '/');
    char *dir = slash ? xasprintf("%.*s", (int)(slash - prefix + (slash == prefix)), prefix) : xstrdup(".");
    const char *base = slash ? slash + 1 : prefix;
    size_t bl = strlen(base);
    int removed = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        unsigned host;
        long pid;
        unsigned long long start;
        if (strncmp(e->d_name, base, bl) || !parse_owner(e->d_name + bl, &host, &pid, &start)) continue;
        if (!owner_gone(host, pid, start)) continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && st.st_uid == geteuid() && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
            int ok = S_ISDIR(st.st_mode) ? remove_tree(path) == 0 : unlink(path) == 0;
            if (ok) {
                log_info("removed %s, left by process %ld which ended without cleaning up", path, pid);
                removed++;
            }
        }
        free(path);
    }
    if (d) closedir(d);
    free(dir);
    return removed;
}

static char *template_of(const char *prefix) {
    tempname_remove_stale(prefix);
    return xasprintf("%s%s.XXXXXX", prefix, tempname_owner());
}

/* name when the entry was created (registered for removal), else NULL (name freed,
 * errno kept). */
static char *registered(char *name, int created, int is_dir) {
    if (!created) {
        int saved = errno;
        free(name);
        errno = saved;
        return NULL;
    }
    if (is_dir) tempdir_register(name);
    else tempfile_register(name);
    return name;
}

char *tempname_create_file(const char *prefix, int *fd) {
    char *name = template_of(prefix);
    *fd = mkstemp(name);
    return registered(name, *fd >= 0, 0);
}

char *tempname_create_dir(const char *prefix) {
    char *name = template_of(prefix);
    return registered(name, mkdtemp(name) != NULL, 1);
}
