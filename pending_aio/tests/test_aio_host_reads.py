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
"""The embedded cloud's playbook reads the cloud's host on that host.

Ansible evaluates Jinja tests (``is exists``) and lookups (``lookup('file',
...)``) on the machine that runs the playbook, and ``playbook_dir`` and
``role_path`` are paths of that machine.  With the cloud on another host
(issue 18: an inventory with ``ansible_connection: ssh``) each such read of
the cloud's files would read the wrong machine, and the CI run over SSH on
the loopback cannot notice (both are one machine).  So the roles may only:

- look up their own sources: a path relative to the role (its ``files/``
  or ``templates/``), under ``role_path``, or under ``aio_source_dir``
  (this checkout on the controller), never a path of the cloud (``aio_*``
  directories, the nova tree, the venvs); the cloud's files are read with
  ``stat`` and ``slurp`` on the host;
- never test a path with a Jinja test;
- never name ``playbook_dir``, nor hand ``role_path`` to a module (a
  program the host runs must be copied there first).
"""

import glob
import os
import re

from oslotest import base

from pending_tempest_plugin.unit_tests import fakes

PLAYBOOKS = os.path.join(fakes.REPO, 'playbooks')
PATH_TEST = re.compile(r'\bis\s+(?:not\s+)?(?:exists|file|directory|dir|'
                       r'link|mount|abs)\b')
LOOKUP = re.compile(r"lookup\(\s*'(file|template|fileglob)'\s*,\s*([^,)]+)")
# What a lookup may read: a literal relative path, or a path built on
# role_path or aio_source_dir.
SOURCE = re.compile(r"^(?:'[^/'][^']*'|role_path\b.*|aio_source_dir\b.*|"
                    r"t\s*~.*|'constraints/'\s*~.*)$")


def role_files():
    for pattern in ('roles/aio_*/tasks/*.yaml', 'roles/aio_*/templates/*',
                    'roles/aio_*/defaults/*.yaml', 'group_vars/*.yaml',
                    'aio.yaml'):
        yield from sorted(glob.glob(os.path.join(PLAYBOOKS, pattern)))


def problems(path, text):
    rel = os.path.relpath(path, PLAYBOOKS)
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        where = '%s:%d' % (rel, n)
        # Comments say what they like (YAML and Jinja comments).
        code = re.sub(r'^\s*#.*$|\{#.*?#\}', '', line)
        if PATH_TEST.search(code) and 'aio_nova_source is abs' not in code:
            found.append('%s: a Jinja path test (use stat on the host): %s'
                         % (where, line.strip()))
        if 'playbook_dir' in code and not rel.startswith('group_vars'):
            found.append('%s: playbook_dir in a role: %s'
                         % (where, line.strip()))
        if ('role_path' in code and 'lookup(' not in code
                and not code.lstrip().startswith('{%- set t =')):
            found.append('%s: role_path outside a lookup: %s'
                         % (where, line.strip()))
        for kind, arg in LOOKUP.findall(code):
            if not SOURCE.match(arg.strip()):
                found.append('%s: a %s lookup of %s (a path of the cloud is '
                             'read on its host: stat, slurp)'
                             % (where, kind, arg.strip()))
    return found


class HostReadsTest(base.BaseTestCase):

    def test_playbook_reads_host_on_host(self):
        found = []
        for path in role_files():
            with open(path) as f:
                found += problems(path, f.read())
        self.assertEqual([], found)

    def test_the_check_finds_each_kind_of_read(self):
        text = '\n'.join([
            "when: (aio_data ~ '/mysql') is exists",
            "x: \"{{ lookup('file', aio_state ~ '/nova-source') }}\"",
            "cmd: [\"{{ role_path }}/files/tool.py\"]",
            "src: \"{{ playbook_dir }}/files/x\"",
            "# a comment naming playbook_dir and is exists",
            "y: \"{{ lookup('file', 'aio_virt_driver.py') }}\"",
            "z: \"{{ lookup('file', role_path ~ '/files/a.py') }}\"",
        ])
        found = problems(os.path.join(PLAYBOOKS, 'roles', 'r', 'tasks',
                                      'main.yaml'), text)
        self.assertEqual(4, len(found), found)
        self.assertIn('main.yaml:1: a Jinja path test', found[0])
        self.assertIn("lookup of aio_state ~ '/nova-source'", found[1])
        self.assertIn('role_path outside a lookup', found[2])
        self.assertIn('playbook_dir in a role', found[3])
