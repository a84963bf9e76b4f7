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
"""The embedded cloud's topology, read from the file the playbook reads.

``playbooks/group_vars/all.yaml`` is the one source of the cloud's nova
control planes (``aio_nova_planes``), the host_status policy profiles
served by a nova-api of their own (``aio_host_status_profile_apis``), the
microversions of the reference series (``aio_reference_microversions``)
and the configuration legs of the verdict (``aio_conformance_legs``).
The stages read them here instead of keeping copies.  The values read
are plain YAML (no Jinja).
"""

import functools
import os

from pending_aio import data_file
from pending_aio import REPO

GROUP_VARS = os.path.join(REPO, 'playbooks', 'group_vars', 'all.yaml')

# A plane's keys (aio_nova_planes) and the `up` variable each stands for.
PLANE_VARIABLES = (('use_pending_state', 'aio_use_pending_state'),
                   ('quota_counting', 'aio_quota_counting'),
                   ('recheck_quota', 'aio_quota_recheck'))


@functools.lru_cache(maxsize=None)
def group_vars(path=GROUP_VARS):
    """The playbook's group variables (PyYAML: the tox envs' Ansible's)."""
    import yaml
    with open(path) as f:
        return yaml.safe_load(f)


def _word(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


def planes(path=GROUP_VARS):
    """{plane: its options as `up` variables}, from aio_nova_planes.

    The variables that would give nova's own control services the plane's
    options ("aio_use_pending_state=false aio_quota_counting=placement
    aio_quota_recheck=true"); an option the plane leaves out keeps the
    cloud's default.
    """
    found = {}
    for plane in group_vars(path)['aio_nova_planes']:
        found[plane['name']] = ' '.join(
            '%s=%s' % (variable, _word(plane[key]))
            for key, variable in PLANE_VARIABLES if key in plane)
    return found


def profile_apis(path=GROUP_VARS):
    """The policy profiles with a nova-api of their own, in file order."""
    return tuple(group_vars(path)['aio_host_status_profile_apis'])


def microversions(path=GROUP_VARS):
    """{claim: microversion} of the reference series (strings)."""
    return dict((k, str(v)) for k, v in
                group_vars(path)['aio_reference_microversions'].items())


class TopologyError(ValueError):
    pass


# The keys of a leg of aio_conformance_legs (weights is optional).
LEG_KEYS = ('name', 'plane', 'classes', 'decides')


def legs(path=GROUP_VARS):
    """The legs of aio_conformance_legs, in file order, checked.

    Each a dict: name, plane ('' or a plane of aio_nova_planes), classes
    (a tuple of class ids, or the string ``suite``), decides and weights
    (a file of pending_aio/data, or None).  A malformed leg is a
    :class:`TopologyError` naming it.
    """
    data = group_vars(path)
    known_planes = set(p['name'] for p in data['aio_nova_planes'])
    found = []
    for index, leg in enumerate(data.get('aio_conformance_legs') or ()):
        where = 'aio_conformance_legs[%d] (%s)' % (
            index, leg.get('name') if isinstance(leg, dict) else leg)
        if not isinstance(leg, dict):
            raise TopologyError('%s: not a mapping' % where)
        missing = [key for key in LEG_KEYS if key not in leg]
        unknown = set(leg) - set(LEG_KEYS) - {'weights'}
        if missing or unknown:
            raise TopologyError('%s: missing %s, unknown %s' % (
                where, ', '.join(missing) or 'nothing',
                ', '.join(sorted(unknown)) or 'nothing'))
        plane = leg['plane'] or ''
        if plane and plane not in known_planes:
            raise TopologyError('%s: plane %r is none of aio_nova_planes (%s)'
                                % (where, plane,
                                   ', '.join(sorted(known_planes))))
        classes = leg['classes']
        if classes != 'suite':
            if (not isinstance(classes, list) or not classes
                    or not all(isinstance(c, str) and '.' in c
                               for c in classes)):
                raise TopologyError('%s: classes is `suite` or a non-empty '
                                    'list of class ids' % where)
            classes = tuple(classes)
        weights = leg.get('weights')
        found.append({'name': str(leg['name']), 'plane': plane,
                      'classes': classes, 'decides': ' '.join(
                          str(leg['decides']).split()),
                      'weights': data_file(weights) if weights else None})
    names = [leg['name'] for leg in found]
    if len(set(names)) != len(names) or not found:
        raise TopologyError('aio_conformance_legs: names must be unique, and '
                            'there must be a leg (%s)' % ', '.join(names))
    return found
