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
served by a nova-api of their own (``aio_host_status_profile_apis``) and
the microversions of the reference series
(``aio_reference_microversions``).  The stages read them here instead of
keeping copies.  The values read are plain YAML (no Jinja).
"""

import functools
import os

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
