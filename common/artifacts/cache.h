/* cache: the `cache` artifact kind (schemas/cache.md) — the frozen-prefix cache an encoder's
 * training maps (its layout, writer and reader: model/prefix_cache.h). */
#ifndef PROBEXPAN_CACHE_H
#define PROBEXPAN_CACHE_H

#include "format/artifact.h"

#define CACHE_KIND "cache"
#define CACHE_SCHEMA 1

/* A writer of a cache artifact at path (the caller adds params, inputs and the payload). */
artifact_writer *cache_create(const char *path);

#endif
