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
"""Who sees which host_status: one table, read by every host_status test.

``TABLE[(profile, persona, host_status)]`` is what ``persona`` must see in
a server whose compute is in ``host_status``, under the policy ``profile``
of ``[nova_conformance] host_status_policy_profile``: the value itself,
``ABSENT`` (the server is returned without the ``host_status`` key) or
``NO_ACCESS`` (the persona cannot see the server at all: 404 on show, not
in detail).  ``verdict()`` turns a response into a failure message naming
the persona, the expected and the actual visibility, so that
under-permission and over-permission are reported as such.
"""

import itertools

from pending_tempest_plugin import config as project_config

HOST_STATUSES = ('UP', 'UNKNOWN', 'DOWN', 'MAINTENANCE', '')
PERSONAS = ('admin', 'owner_member', 'owner_reader', 'other_project')


class _Marker(str):
    """A named outcome that cannot be mistaken for a host_status value."""

    def __repr__(self):
        return '<%s>' % self


ABSENT = _Marker('absent')
NO_ACCESS = _Marker('no access')

# What each persona may see, per profile: every value, no value, or only
# UNKNOWN (nova's os_compute_api:servers:show:host_status:unknown-only).
_ALL = frozenset(HOST_STATUSES)
_NONE = frozenset()
_UNKNOWN = frozenset(['UNKNOWN'])
_VISIBLE = {
    'admin_only': {'admin': _ALL, 'owner_member': _NONE,
                   'owner_reader': _NONE},
    'admin_or_owner': {'admin': _ALL, 'owner_member': _ALL,
                       'owner_reader': _ALL},
    'unknown_only': {'admin': _ALL, 'owner_member': _UNKNOWN,
                     'owner_reader': _UNKNOWN},
}


def _build():
    table = {}
    for profile, persona, status in itertools.product(
            project_config.POLICY_PROFILES, PERSONAS, HOST_STATUSES):
        visible = _VISIBLE[profile].get(persona)
        if visible is None:
            outcome = NO_ACCESS
        elif status in visible:
            outcome = status
        else:
            outcome = ABSENT
        table[(profile, persona, status)] = outcome
    return table


TABLE = _build()


def _hidden(outcome):
    return outcome is ABSENT or outcome is NO_ACCESS


def _rank(outcome):
    """How much a persona sees: nothing, the server, its host_status."""
    return 0 if outcome is NO_ACCESS else 1 if outcome is ABSENT else 2


def expected(profile, persona, host_status):
    """The value ``persona`` must see, ``ABSENT`` or ``NO_ACCESS``."""
    try:
        return TABLE[(profile, persona, host_status)]
    except KeyError:
        raise ValueError('No expectation for profile %r, persona %r, '
                         'host_status %r' % (profile, persona, host_status))


def observed(server):
    """What a server body shows: its host_status or ``ABSENT``."""
    return server.get('host_status', ABSENT)


def verdict(profile, persona, host_status, server):
    """None if ``server`` (a body, or None for 404) is as expected.

    Otherwise a sentence saying whether it is under-permission (an allowed
    persona does not see the value), over-permission (a forbidden persona
    sees it) or a wrong value.
    """
    want = expected(profile, persona, host_status)
    got = NO_ACCESS if server is None else observed(server)
    if _hidden(want) or _hidden(got):
        if got is want:
            return None
    elif got == want:
        return None
    if _rank(got) > _rank(want):
        kind = 'over-permission'
    elif _rank(got) < _rank(want):
        kind = 'under-permission'
    else:
        kind = 'wrong host_status'
    return ('%s for persona %s under policy profile %s with the compute %s: '
            'expected %r, got %r' % (
                kind, persona, profile,
                'with no host' if host_status == '' else 'in ' + host_status,
                want, got))
