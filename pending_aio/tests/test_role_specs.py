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
"""Each role's argument specs name every variable its entry points read.

Ansible checks a role's ``meta/argument_specs.yml`` when the role is
included, so a variable named there and missing or of the wrong type stops
the play at once; a variable read but not named is not checked, and the
role's README (which lists the specs' variables) would not say it reads
it.  What an entry point reads: the ``aio_*`` variables of the whole cloud
(``group_vars/all.yaml``), of the role's defaults and the lists
aio_common's declare step gathers, named in its task file, in the role's
templates the task file uses (by name, and the templates those use), in
``playbooks/templates`` and in the defaults it reads; comments aside.
"""

import glob
import os
import re

from oslotest import base
import yaml

import pending_aio

PLAYBOOKS = os.path.join(pending_aio.REPO, 'playbooks')
ROLES = os.path.join(PLAYBOOKS, 'roles')
VAR = re.compile(r'\baio_[a-z0-9_]+\b')
# Set by aio_common's declare step, read by aio_files and aio_openstack.
GATHERED = {'aio_file_specs', 'aio_keystone_services', 'aio_db_syncs'}
# What an entry point sets, not reads: Ansible checks the specs before the
# entry point runs, so naming them there would stop the play.
OUTPUTS = {('aio_common', 'declare'): GATHERED}


def without_comments(text):
    text = re.sub(r'\{#.*?#\}', '', text, flags=re.S)
    return '\n'.join(line for line in text.splitlines()
                     if not line.lstrip().startswith(('#', ';')))


def read_yaml(path):
    with open(path) as f:
        return yaml.safe_load(f) or {}


def cloud_variables():
    return set(read_yaml(os.path.join(PLAYBOOKS, 'group_vars', 'all.yaml')))


def role_defaults(role):
    path = os.path.join(ROLES, role, 'defaults', 'main.yaml')
    return read_yaml(path) if os.path.exists(path) else {}


def templates(role):
    texts = {}
    for path in (glob.glob(os.path.join(ROLES, role, 'templates', '*'))
                 + glob.glob(os.path.join(PLAYBOOKS, 'templates', '*'))):
        with open(path) as f:
            texts[os.path.basename(path)] = without_comments(f.read())
    return texts


def reads(role, entry, known):
    """The known variables entry point ENTRY of ROLE reads."""
    defaults = role_defaults(role)
    texts = templates(role)
    with open(os.path.join(ROLES, role, 'tasks', entry + '.yaml')) as f:
        todo = [without_comments(f.read())]
    used, names = set(), set()
    while todo:
        text = todo.pop()
        for name, body in texts.items():
            if name in text and name not in used:
                used.add(name)
                todo.append(body)
        for var in set(VAR.findall(text)) - names:
            names.add(var)
            if var in defaults:
                todo.append(yaml.safe_dump(defaults[var]))
    return names & (known | set(defaults))


def roles():
    return sorted(os.path.basename(os.path.dirname(os.path.dirname(p)))
                  for p in glob.glob(os.path.join(ROLES, '*', 'meta',
                                                  'argument_specs.yml')))


class RoleSpecsTestCase(base.BaseTestCase):

    def test_every_role_has_specs_and_a_readme(self):
        for path in glob.glob(os.path.join(ROLES, '*', 'tasks')):
            role = os.path.dirname(path)
            self.assertTrue(os.path.exists(
                os.path.join(role, 'meta', 'argument_specs.yml')), role)
            self.assertTrue(os.path.exists(
                os.path.join(role, 'README.md')), role)

    def test_specs_name_every_variable_an_entry_point_reads(self):
        known = cloud_variables() | GATHERED
        checked = 0
        for role in roles():
            specs = read_yaml(os.path.join(
                ROLES, role, 'meta', 'argument_specs.yml'))['argument_specs']
            for entry, spec in specs.items():
                options = set(spec.get('options') or {})
                outputs = OUTPUTS.get((role, entry), set())
                missing = reads(role, entry, known) - options - outputs
                self.assertEqual(set(), missing, '%s %s' % (role, entry))
                self.assertEqual(set(), options & outputs,
                                 '%s %s' % (role, entry))
                checked += 1
        self.assertGreaterEqual(checked, 20)

    def test_each_entry_point_has_specs(self):
        # Every task file a play or another role includes is an entry
        # point; the spec says what it reads.
        included = set()
        for path in (glob.glob(os.path.join(PLAYBOOKS, '*.yaml'))
                     + glob.glob(os.path.join(ROLES, '*', 'tasks', '*.yaml'))):
            with open(path) as f:
                text = f.read()
            for m in re.finditer(r'name: (aio_\w+)[,}\s]+(?:\s*tasks_from: '
                                 r'(\w+))?', text):
                included.add((m.group(1), m.group(2) or 'main'))
        for role in roles():
            specs = read_yaml(os.path.join(
                ROLES, role, 'meta', 'argument_specs.yml'))['argument_specs']
            for r, entry in included:
                if r == role:
                    self.assertIn(entry, specs, role)

    def test_a_variable_read_but_not_named_is_found(self):
        known = cloud_variables() | GATHERED
        self.assertIn('aio_keystone_password_hash_rounds',
                      reads('aio_keystone', 'declare', known))
        self.assertIn('aio_memcached_servers',   # through _macros.j2
                      reads('aio_glance', 'declare', known))
        self.assertNotIn('aio_service_roles',    # in a comment only
                         reads('aio_nova', 'declare', known))
