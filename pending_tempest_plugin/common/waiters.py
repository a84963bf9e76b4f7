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

from tempest import config
from tempest.lib import exceptions as lib_exc

from pending_tempest_plugin.common import polling

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


def poll_interval(group=None):
    """Seconds between two polls: ``[nova_conformance] poll_interval``.

    Unset, the ``build_interval`` of ``group`` (default ``[compute]``).
    """
    return (CONF.nova_conformance.poll_interval
            or (group or CONF.compute).build_interval)


def _bounds(timeout, interval, group=None):
    """``build_timeout`` / :func:`poll_interval` where not given.

    :param group: the tempest.conf group to read them from; default
                  ``[compute]``.
    """
    group = group or CONF.compute
    return (group.build_timeout if timeout is None else timeout,
            poll_interval(group) if interval is None else interval)


def _expected(expected):
    """``(frozenset of statuses, 'A/B' label)`` of a status or several."""
    expected = frozenset([expected] if isinstance(expected, str)
                         else expected)
    return expected, '/'.join(sorted(expected))


def _poll(fetch, done, timeout, interval, timed_out, what='wait',
          describe_value=repr):
    """:func:`polling.poll` with the waiter's own timeout exception."""
    return polling.poll(fetch, done, timeout, interval, what=what,
                        describe=describe_value, timed_out=timed_out)


def _gone(show):
    """``show()``, or None once it answers 404."""
    try:
        return show()
    except lib_exc.NotFound:
        return None


def wait_for_server_status(client, server_id, expected, terminal=TERMINAL,
                           timeout=None, interval=None):
    """Poll ``client.show_server`` until the server is in ``expected``.

    :param expected: a status (``'ACTIVE'``) or a collection of them
                     (``{'PENDING', 'ERROR'}``).
    :param terminal: statuses that end the wait; reaching one that is not
                     expected raises UnexpectedServerState.
    :param timeout: seconds; default ``[compute] build_timeout``.
    :param interval: seconds between polls; default
                     :func:`poll_interval`.
    :returns: the server body in its final state.
    """
    expected, wanted = _expected(expected)
    timeout, interval = _bounds(timeout, interval)

    def done(server):
        status = server.get('status')
        if status in expected and (status in terminal or _settled(server)):
            return True
        if status in terminal and status not in expected:
            fault = server.get('fault', {}).get('message')
            raise UnexpectedServerState(
                server_id=server_id, expected=wanted,
                actual=describe(server),
                fault='; fault: %s' % fault if fault else '')
        return False

    return _poll(
        lambda: client.show_server(server_id)['server'], done, timeout,
        interval, lambda server: ServerStateTimeout(
            server_id=server_id, expected=wanted, timeout=timeout,
            actual=describe(server)),
        what='server %s to %s' % (server_id, wanted),
        describe_value=describe)


class ServerDeletionTimeout(lib_exc.TimeoutException):
    message = ('Server %(server_id)s was not deleted within %(timeout)s s; '
               'last state: %(actual)s')


def wait_for_server_deletion(client, server_id, timeout=None, interval=None):
    """Poll until ``show_server`` answers 404 (or the server is DELETED).

    A server in ERROR while being deleted is not terminal here: nova
    retries the delete of a server whose compute comes back.
    """
    timeout, interval = _bounds(timeout, interval)
    _poll(lambda: _gone(lambda: client.show_server(server_id)['server']),
          lambda server: server is None or server.get('status') == 'DELETED',
          timeout, interval, lambda server: ServerDeletionTimeout(
              server_id=server_id, timeout=timeout, actual=describe(server)),
          what='server %s deleted' % server_id,
          describe_value=lambda s: 'gone' if s is None else describe(s))


class UnexpectedVolumeState(lib_exc.TempestException):
    message = ('Volume %(volume_id)s reached %(actual)s while waiting for '
               '%(expected)s')


class VolumeStateTimeout(lib_exc.TimeoutException):
    message = ('Volume %(volume_id)s did not reach %(expected)s within '
               '%(timeout)s s; last status: %(actual)s')


def wait_for_volume_status(client, volume_id, expected, timeout=None,
                           interval=None):
    """Poll ``client.show_volume`` until the volume is in ``expected``.

    A status starting with ``error`` that is not expected ends the wait
    at once.

    :param expected: a status or a collection of them.
    :returns: the volume body in its final state.
    """
    expected, wanted = _expected(expected)
    timeout, interval = _bounds(timeout, interval, CONF.volume)

    def done(volume):
        status = volume.get('status')
        if status in expected:
            return True
        if status.startswith('error'):
            raise UnexpectedVolumeState(volume_id=volume_id,
                                        expected=wanted, actual=status)
        return False

    return _poll(
        lambda: client.show_volume(volume_id)['volume'], done, timeout,
        interval, lambda volume: VolumeStateTimeout(
            volume_id=volume_id, expected=wanted, timeout=timeout,
            actual=volume.get('status')),
        what='volume %s to %s' % (volume_id, wanted),
        describe_value=lambda v: v.get('status'))


def wait_for_volume_deletion(client, volume_id, timeout=None,
                             interval=None):
    """Poll until ``show_volume`` answers 404."""
    timeout, interval = _bounds(timeout, interval, CONF.volume)
    _poll(lambda: _gone(lambda: client.show_volume(volume_id)['volume']),
          lambda volume: volume is None, timeout, interval,
          lambda volume: VolumeStateTimeout(
              volume_id=volume_id, expected='deleted', timeout=timeout,
              actual=volume.get('status')),
          what='volume %s deleted' % volume_id,
          describe_value=lambda v: 'gone' if v is None else v.get('status'))


class NotificationTimeout(lib_exc.TimeoutException):
    message = ('No versioned notification %(expected)s about server '
               '%(server_id)s within %(timeout)s s; seen for it: %(seen)s')


def wait_for_notification(fetch, match, server_id, expected, describe_seen,
                          timeout=None, interval=None):
    """Poll ``fetch()`` (the notifications seen so far) until one matches.

    :param fetch: returns the notifications received about the server.
    :param match: True for the notification waited for.
    :param expected: what is waited for, for the message.
    :param describe_seen: text of the notifications seen, for the message.
    :param timeout: seconds; default ``[compute] build_timeout``.
    :param interval: seconds between polls; default
                     ``[nova_conformance] poll_interval``, else 1 (the
                     notifications are in this process: no request).
    :returns: the first matching notification.
    """
    if interval is None:
        interval = CONF.nova_conformance.poll_interval or 1
    timeout, interval = _bounds(timeout, interval)
    seen = _poll(fetch, lambda seen: any(match(n) for n in seen), timeout,
                 interval, lambda seen: NotificationTimeout(
                     expected=expected, server_id=server_id,
                     timeout=timeout, seen=describe_seen(seen)),
                 what='%s about server %s' % (expected, server_id),
                 describe_value=lambda seen: '%d notification(s)' % len(seen))
    return [n for n in seen if match(n)][0]
