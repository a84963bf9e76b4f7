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
"""Pure checks of what the API answers: no client, no Tempest state.

Each returns what a failing test prints: a list of sentences (empty when
all is well), or None / one sentence.  Unit tested in
``unit_tests/test_checks.py``.
"""

from pending_tempest_plugin.common import microversions

# The conductor event that records the NoValidHost of a new server.
SCHEDULE_EVENT = 'conductor_schedule_and_build_instances'

# What nova's fault of a NoValidHost says (nova.exception.NoValidHost).
NOVALIDHOST_FAULT_MESSAGE = 'No valid host was found'

# Fields that a refused (409) rebuild must leave as they were.
UNCHANGED_FIELDS = ('id', 'name', 'status', 'OS-EXT-STS:vm_state',
                    'OS-EXT-STS:task_state', 'OS-EXT-SRV-ATTR:host',
                    'image', 'flavor', 'metadata', 'updated')


def changed(before, after, when):
    """How ``after`` differs from ``before`` in UNCHANGED_FIELDS."""
    expected = dict((k, before.get(k, '<absent>')) for k in UNCHANGED_FIELDS)
    return differences(expected, after, when)


def buried_state(pending_enabled):
    """(status, vm_state) of a NoValidHost server at a new microversion."""
    return ('PENDING', 'pending') if pending_enabled else ('ERROR', 'error')


def shown_state(stored_vm_state, version, pending_microversion):
    """(status, vm_state) a cell0 server shows at ``version``.

    A PENDING server reads ERROR / error below the PENDING microversion
    (interpretation.rst, interp-old-microversions).
    """
    if stored_vm_state == 'pending' and pending_microversion and (
            microversions.at_least(version, pending_microversion)):
        return ('PENDING', 'pending')
    return ('ERROR', 'error')


def differences(expected, actual, where=''):
    """One 'key: expected X, got Y' sentence per key that differs."""
    problems = []
    for key in sorted(expected):
        got = actual.get(key, '<absent>')
        if got != expected[key]:
            problems.append('%s%s: expected %r, got %r' % (
                where, key, expected[key], got))
    return problems


def fault_problems(fault, where=''):
    """One sentence per way ``fault`` is not the fault of a NoValidHost.

    ``fault`` is the server's ``fault`` value (None when the key is
    absent): a code, a message saying no valid host was found and the
    time it was recorded, as nova shows it for an ERROR server.
    """
    wanted = ('the NoValidHost fault (code, created, message %r)'
              % NOVALIDHOST_FAULT_MESSAGE)
    if not isinstance(fault, dict):
        return ['%sfault: expected %s, got %s' % (
            where, wanted, 'no fault key' if fault is None else repr(fault))]
    problems = []
    if not isinstance(fault.get('code'), int):
        problems.append('%sfault code: expected an integer, got %r' % (
            where, fault.get('code', '<absent>')))
    if not fault.get('created'):
        problems.append('%sfault created: expected a time, got %r' % (
            where, fault.get('created', '<absent>')))
    message = fault.get('message')
    if not isinstance(message, str) or (
            NOVALIDHOST_FAULT_MESSAGE.lower() not in message.lower()):
        problems.append('%sfault message: expected it to say %r, got %r' % (
            where, NOVALIDHOST_FAULT_MESSAGE, message))
    return problems


def addresses_of(body):
    """Every IP address the ``addresses`` of a server body show, sorted."""
    return sorted(entry['addr']
                  for entries in (body.get('addresses') or {}).values()
                  for entry in entries)


def quota_overrun(resource, limit, in_use_before, in_use_after):
    """None unless usage grew beyond what the quota allowed.

    Usage may stay above a limit that was lowered below it (it was already
    there); it must not grow past ``max(limit, in_use_before)``.
    """
    if limit is None or limit < 0:
        return None
    allowed = max(limit, in_use_before)
    if in_use_after > allowed:
        return ('%s usage is %d after the rebuild, over the quota (limit '
                '%d, usage before the rebuild %d): the server was built '
                'although the quota did not allow it' % (
                    resource, in_use_after, limit, in_use_before))
    return None


def judge_pair(outcomes):
    """Problems of two simultaneous rebuilds of one buried server.

    :param outcomes: two (HTTP status or None, response status or None,
                     detail) tuples.
    At most one cell0 rebuild may be accepted (202 with status BUILD); the
    other must be refused with 409, or, if it came after the first had
    already made the server live again, be an ordinary rebuild of the live
    server (202 with status REBUILD).  The pair alone cannot tell "after"
    from "during" for that second case; the end state (ACTIVE once, listed
    once, nothing left after delete) is checked separately.
    """
    cell0 = [i for i, o in enumerate(outcomes)
             if o[0] == 202 and o[1] == 'BUILD']
    if len(cell0) != 1:
        return ['expected exactly one cell0 rebuild accepted (202, BUILD), '
                'got %s' % describe_outcomes(outcomes)]
    other = outcomes[1 - cell0[0]]
    if other[0] == 409 or (other[0] == 202 and other[1] == 'REBUILD'):
        return []
    return ['the second request: expected 409 Conflict (or 202 REBUILD on '
            'the live server), got %s' % describe_outcomes([other])]


def describe_outcomes(outcomes):
    """(HTTP status, server status, detail) tuples as one sentence."""
    return '; '.join('%s %s %s' % (code, status or '', detail or '')
                     for code, status, detail in outcomes)
