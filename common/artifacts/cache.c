/* cache: the constructor of the `cache` artifact kind. */
#include "artifacts/cache.h"

artifact_writer *cache_create(const char *path) { return artifact_create(path, CACHE_KIND, CACHE_SCHEMA); }
