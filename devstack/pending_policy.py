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
"""Merge a host_status policy profile into nova's policy file.

Usage: pending_policy.py PROFILE POLICY_FILE

Run by devstack/plugin.sh with devstack's python (PyYAML is there) from the
plugin checkout, which need not be installed.  The existing file is loaded,
every rule any profile owns is dropped, the profile's rules are added, and
the file is written only if its rules changed: a second run with the same
profile leaves it untouched (content and mtime, which oslo.policy watches).
No file and no rule to write: nothing is created.  Prints what it did; exit
status 2 with a message when the profile is unknown or the file unusable.
"""

import os
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
from pending_tempest_plugin.conformance import policy_profiles  # noqa: E402

HEADER = ('# Rules of the host_status policy profile %s, merged by the '
          'pending-tempest-plugin\n# devstack plugin; every rule no profile '
          'owns is kept as it was.\n')


def read_policy(path):
    """The rules of ``path`` (``{}`` when the file is absent or empty)."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        data = yaml.safe_load(f)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise policy_profiles.ProfileError(
            '%s: a policy file is a mapping of rule to check string' % path)
    return data


def render(policy, profile):
    if not policy:
        return HEADER % profile + '{}\n'
    return HEADER % profile + yaml.safe_dump(
        policy, default_flow_style=False, sort_keys=True, width=1 << 16)


def apply(profile, path):
    """'unchanged', 'absent' (nothing to write) or 'written'."""
    current = read_policy(path)
    merged = policy_profiles.merge(current or {}, profile)
    if current is None and not merged:
        return 'absent'
    if current == merged:
        return 'unchanged'
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix='.policy-')
    try:
        with os.fdopen(fd, 'w') as f:
            f.write(render(merged, profile))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return 'written'


def main(argv):
    if len(argv) != 2:
        sys.stderr.write('usage: pending_policy.py PROFILE POLICY_FILE\n')
        return 2
    try:
        outcome = apply(*argv)
    except (policy_profiles.ProfileError, yaml.YAMLError, OSError) as e:
        sys.stderr.write('pending_policy: %s\n' % e)
        return 2
    print('pending_policy: %s %s (profile %s)' % (argv[1], outcome, argv[0]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
