# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""Wait for a server status, with PENDING and ERROR as terminal states.

Tempest's own waiter treats only ERROR as terminal, so a server that goes
to PENDING while the caller waits for ACTIVE just times out after
build_timeout.  Here every status in ``terminal`` ends the wait at once:
either it is what the caller expects, or the wait fails naming the
expected and the actual state.
"""

import time

from tempest import config
from tempest.lib import exceptions as lib_exc

CONF = config.CONF

TERMINAL = frozenset(('ERROR', 'PENDING'))


class UnexpectedServerState(lib_exc.TempestException):
    message = ('Server %(server_id)s reached terminal state %(actual)s '
               'while waiting for %(expected)s%(fault)s')


class ServerStateTimeout(lib_exc.TimeoutException):
    message = ('Server %(server_id)s did not reach %(expected)s within '
               '%(timeout)s s; last state: %(actual)s')


def describe(server):
    """``STATUS (vm_state x, task_state y)`` of a server body."""
    return '%s (vm_state %s, task_state %s)' % (
        server.get('status'), server.get('OS-EXT-STS:vm_state', '?'),
        server.get('OS-EXT-STS:task_state', '?'))


def _settled(server):
    # Only admins see the task state; when visible, wait for it to clear
    # (an ACTIVE server can still be finishing a rebuild or a resize).
    return server.get('OS-EXT-STS:task_state') is None


def _bounds(timeout, interval):
    """``[compute] build_timeout`` / ``build_interval`` where not given."""
    return (CONF.compute.build_timeout if timeout is None else timeout,
            CONF.compute.build_interval if interval is None else interval)


def wait_for_server_status(client, server_id, expected, terminal=TERMINAL,
                           timeout=None, interval=None):
    """Poll ``client.show_server`` until the server is in ``expected``.

    :param expected: a status (``'ACTIVE'``) or a collection of them
                     (``{'PENDING', 'ERROR'}``).
    :param terminal: statuses that end the wait; reaching one that is not
                     expected raises UnexpectedServerState.
    :param timeout: seconds; default ``[compute] build_timeout``.
    :param interval: seconds between polls; default ``[compute]
                     build_interval``.
    :returns: the server body in its final state.
    """
    expected = frozenset([expected] if isinstance(expected, str)
                         else expected)
    wanted = '/'.join(sorted(expected))
    timeout, interval = _bounds(timeout, interval)
    deadline = time.monotonic() + timeout
    while True:
        server = client.show_server(server_id)['server']
        status = server.get('status')
        if status in expected and (status in terminal or _settled(server)):
            return server
        if status in terminal and status not in expected:
            fault = server.get('fault', {}).get('message')
            raise UnexpectedServerState(
                server_id=server_id, expected=wanted,
                actual=describe(server),
                fault='; fault: %s' % fault if fault else '')
        if time.monotonic() >= deadline:
            raise ServerStateTimeout(server_id=server_id, expected=wanted,
                                     timeout=timeout,
                                     actual=describe(server))
        time.sleep(interval)


class ServerDeletionTimeout(lib_exc.TimeoutException):
    message = ('Server %(server_id)s was not deleted within %(timeout)s s; '
               'last state: %(actual)s')


def wait_for_server_deletion(client, server_id, timeout=None, interval=None):
    """Poll until ``show_server`` answers 404 (or the server is DELETED).

    A server in ERROR while being deleted is not terminal here: nova
    retries the delete of a server whose compute comes back.
    """
    timeout, interval = _bounds(timeout, interval)
    deadline = time.monotonic() + timeout
    while True:
        try:
            server = client.show_server(server_id)['server']
        except lib_exc.NotFound:
            return
        if server.get('status') == 'DELETED':
            return
        if time.monotonic() >= deadline:
            raise ServerDeletionTimeout(server_id=server_id, timeout=timeout,
                                        actual=describe(server))
        time.sleep(interval)
