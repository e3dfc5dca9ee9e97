/* connections: the connection guard of `probexpan serve` — what keeps slow or idle clients from
 * holding the server. libmicrohttpd's own timeout is an idle timeout that restarts with every
 * byte, and its connection limit leaves new connections waiting in the kernel's backlog; this
 * module adds, over MHD_OPTION_NOTIFY_CONNECTION:
 *
 * - a deadline for each request's head and body together, counted from the connection's start
 *   or from the end of the previous response on a kept-alive connection: a request not
 *   received in full by then gets "408 Request Timeout" and its socket is shut down;
 * - a capacity: a connection arriving when `capacity` connections are open makes room by
 *   shutting down (408) the oldest one that has been receiving a request for over a second,
 *   and when none has, it is refused at once with "503 Service Unavailable" (JSON bodies as
 *   the API's errors). A request being answered is never cut.
 *
 * The guard keeps its own duplicate of each socket (closed when MHD reports the connection
 * closed), so a shutdown from the watchdog thread can never reach a reused descriptor. */
#ifndef PROBEXPAN_SERVE_CONNECTIONS_H
#define PROBEXPAN_SERVE_CONNECTIONS_H

#include <microhttpd.h>

typedef struct conn_guard conn_guard;

/* Starts the watchdog thread. capacity >= 1, deadline_ms >= 1. */
conn_guard *conn_guard_start(int capacity, int deadline_ms);
/* Stops the watchdog and frees the guard (after MHD_stop_daemon). */
void conn_guard_stop(conn_guard *g);

/* The MHD_OPTION_NOTIFY_CONNECTION callback; cls is the guard. */
void conn_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
                       enum MHD_ConnectionNotificationCode code);
/* 1 when the guard already answered this connection (refused or timed out): MHD must drop it. */
int conn_guard_refused(struct MHD_Connection *conn);
/* The request is received in full and is being answered: no deadline until it is sent. 0 when
 * the guard cut the connection first (the request is not to be answered). */
int conn_guard_answering(struct MHD_Connection *conn);
/* The response is sent: the next request's deadline starts now. */
void conn_guard_answered(struct MHD_Connection *conn);
/* Answers `status` with a JSON error and shuts the connection down, for a request refused before
 * MHD has parsed it (a request line too long or with too many parameters: MHD's own answer to
 * these needs memory the line has taken). */
void conn_guard_refuse(struct MHD_Connection *conn, int status, const char *reason, const char *message);
/* 1 when the client has closed its side or reset the connection (its answer would be lost). */
int conn_guard_client_gone(struct MHD_Connection *conn);

#endif
