/* test_tempname: owner-stamped temporary names; a later run removes the temporary
 * files and folders of a killed process and nothing else (live owners, other hosts,
 * other names, symlinks). */
#include "check.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "base/error.h"
#include "base/tempname.h"

static char dir[] = "/tmp/probexpan-tempname-XXXXXX";

static int exists(const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    return lstat(p, &st) == 0;
}
static void touch(const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) fclose(f);
}

/* A child creates a temporary file and folder of PREFIX and dies of SIGKILL (no cleanup);
 * the basenames of what it left are written to file_out/dir_out. */
static void killed_child_leaves(const char *prefix, char *file_out, char *dir_out, size_t n) {
    int p[2];
    if (pipe(p)) return;
    pid_t pid = fork();
    if (pid == 0) {
        int fd;
        char *f = tempname_create_file(prefix, &fd), *d = tempname_create_dir(prefix);
        dprintf(p[1], "%s\n%s\n", strrchr(f, '/') + 1, strrchr(d, '/') + 1);
        char inside[600];
        snprintf(inside, sizeof inside, "%s/partial", d);
        FILE *x = fopen(inside, "w");
        if (x) fclose(x);
        kill(getpid(), SIGKILL);
    }
    close(p[1]);
    char buf[1024] = {0};
    ssize_t got = read(p[0], buf, sizeof buf - 1);
    close(p[0]);
    waitpid(pid, NULL, 0);
    if (got <= 0) return;
    sscanf(buf, "%255s %255s", file_out, dir_out);
    (void)n;
}

static void test_name_carries_owner(void) {
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s/out.mp.tmp.", dir);
    int fd;
    char *name = tempname_create_file(prefix, &fd);
    CHECK(name && fd >= 0);
    if (!name) return;
    char want[600];
    snprintf(want, sizeof want, "%s%s.", prefix, tempname_owner());
    CHECK_MSG(strncmp(name, want, strlen(want)) == 0 && strlen(name) == strlen(want) + 6, "name %s", name);
    /* the owner is alive: its own file is never stale */
    CHECK_EQ_INT(tempname_remove_stale(prefix), 0);
    CHECK(access(name, F_OK) == 0);
    close(fd);
    unlink(name);
    tempfile_unregister(name);
    free(name);
}

static void test_killed_owner_removed(void) {
    char prefix[512], f[256] = "", d[256] = "";
    snprintf(prefix, sizeof prefix, "%s/corpus.mp.tmp.", dir);
    killed_child_leaves(prefix, f, d, sizeof f);
    CHECK(f[0] && exists(f) && d[0] && exists(d));
    /* beside them: names that are not this output's temporary names */
    touch("corpus.mp");
    touch("corpus.mp.tmp.notours");
    touch("corpus.mp.tmp.XXXXXX");
    touch("other.mp.tmp.00000000-1-1.abcdef");
    char other_host[300], with_suffix[300];
    snprintf(other_host, sizeof other_host, "corpus.mp.tmp.%s", f + strlen("corpus.mp.tmp."));
    other_host[strlen("corpus.mp.tmp.")] = other_host[strlen("corpus.mp.tmp.")] == '0' ? '1' : '0';
    touch(other_host);
    snprintf(with_suffix, sizeof with_suffix, "%s.keep", f);
    touch(with_suffix);
    CHECK_EQ_INT(tempname_remove_stale(prefix), 2);
    CHECK(!exists(f));
    CHECK(!exists(d));
    CHECK(exists("corpus.mp") && exists("corpus.mp.tmp.notours") && exists("corpus.mp.tmp.XXXXXX"));
    CHECK(exists("other.mp.tmp.00000000-1-1.abcdef"));
    CHECK_MSG(exists(other_host), "a file of another host or namespace was removed");
    CHECK(exists(with_suffix));
}

/* creating a new temporary file of the same output removes the killed run's */
static void test_create_cleans_up(void) {
    char prefix[512], f[256] = "", d[256] = "";
    snprintf(prefix, sizeof prefix, "%s/.data.spool-", dir);
    killed_child_leaves(prefix, f, d, sizeof f);
    CHECK(f[0] && exists(f));
    int fd;
    char *name = tempname_create_file(prefix, &fd);
    CHECK(name != NULL);
    CHECK(!exists(f) && !exists(d));
    if (name) {
        close(fd);
        unlink(name);
        tempfile_unregister(name);
        free(name);
    }
}

/* a pid taken by another process (another start time) is not the owner */
static void test_reused_pid(void) {
    char prefix[512], name[700], own[64];
    snprintf(prefix, sizeof prefix, "%s/x.tmp.", dir);
    snprintf(own, sizeof own, "%s", tempname_owner());
    char *last = strrchr(own, '-');
    unsigned long long start = strtoull(last + 1, NULL, 10);
    snprintf(name, sizeof name, "x.tmp.%.*s-%llu.a1B2c3", (int)(last - own), own, start + 1);
    touch(name);
    CHECK_EQ_INT(tempname_remove_stale(prefix), 1);
    CHECK(!exists(name));
}

/* a symlink with a stale name is left (and its target untouched) */
static void test_symlink_kept(void) {
    char prefix[512], f[256] = "", d[256] = "", link[700], target[600];
    snprintf(prefix, sizeof prefix, "%s/y.tmp.", dir);
    killed_child_leaves(prefix, f, d, sizeof f);
    snprintf(target, sizeof target, "%s/%s", dir, f);
    snprintf(link, sizeof link, "%s/%s", dir, f);
    unlink(target);
    remove_tree(d[0] ? (snprintf(target, sizeof target, "%s/%s", dir, d), target) : target);
    touch("precious");
    snprintf(target, sizeof target, "%s/precious", dir);
    CHECK(symlink(target, link) == 0);
    CHECK_EQ_INT(tempname_remove_stale(prefix), 0);
    CHECK(exists(f) && exists("precious"));
}

int main(void) {
    check_prog_ = "test_tempname";
    if (!mkdtemp(dir)) return 1;
    RUN(test_name_carries_owner);
    RUN(test_killed_owner_removed);
    RUN(test_create_cleans_up);
    RUN(test_reused_pid);
    RUN(test_symlink_kept);
    remove_tree(dir);
    return check_any_failed_;
}
