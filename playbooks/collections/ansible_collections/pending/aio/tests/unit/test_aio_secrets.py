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
"""The embedded cloud's secrets (issue 18 item 2), without a cloud.

Its passwords are generated per cloud (the pending.aio.secrets module),
every task that handles one is ``no_log``, and every file that holds one is
written mode 0600.
"""

import glob
import json
import os
import re
import stat
import string

import fixtures
from oslotest import base
import yaml

from ansible_collections.pending.aio.plugins.module_utils import aio_files
from ansible_collections.pending.aio.plugins.modules import (
    secrets as aio_secrets)

# The collection's tests are in playbooks/collections/ansible_collections/
# pending/aio/tests/unit: the playbooks are six folders up.
PLAYBOOKS = os.path.abspath(os.path.join(
    os.path.dirname(__file__), *(['..'] * 6)))
TEMPLATES = os.path.join(PLAYBOOKS, 'roles', 'aio_files', 'templates')

# The variables that hold a secret, or a value built from one (the database
# and transport URLs), or the secrets themselves.  A task whose text names
# one must be no_log.
SECRET = re.compile(r'aio_\w+_password\b|aio_(?:db|transport)_url\b'
                    r'|aio_secrets\b|aio_legacy_secrets')
# Task keywords that hold further tasks.
NESTED = ('block', 'rescue', 'always')
PLAY_LISTS = ('pre_tasks', 'tasks', 'post_tasks', 'handlers')


def tasks_of(node, no_log=False):
    """(task, inherited no_log) for every task of a task file or playbook."""
    if not isinstance(node, list):
        return
    for item in node:
        if not isinstance(item, dict):
            continue
        if 'hosts' in item or 'import_playbook' in item:
            for key in PLAY_LISTS:
                yield from tasks_of(item.get(key), item.get('no_log') is True)
            continue
        mine = no_log or item.get('no_log') is True
        nested = [k for k in NESTED if k in item]
        if nested:
            for key in nested:
                yield from tasks_of(item[key], mine)
        else:
            yield item, mine


def task_files():
    patterns = ('*.yaml', 'zuul/*.yaml', 'roles/*/tasks/*.yaml',
                'roles/*/handlers/*.yaml')
    for pattern in patterns:
        yield from sorted(glob.glob(os.path.join(PLAYBOOKS, pattern)))


def unlogged_secret_tasks(tasks):
    return [t.get('name', '?') for t, no_log in tasks
            if SECRET.search(yaml.safe_dump(t)) and not no_log]


class NoLogTestCase(base.BaseTestCase):

    def test_every_task_handling_a_secret_is_no_log(self):
        bad, handled = [], 0
        for path in task_files():
            with open(path) as f:
                tasks = list(tasks_of(yaml.safe_load(f)))
            handled += sum(1 for t, _ in tasks
                           if SECRET.search(yaml.safe_dump(t)))
            bad += ['%s: %s' % (os.path.relpath(path, PLAYBOOKS), name)
                    for name in unlogged_secret_tasks(tasks)]
        self.assertEqual([], bad, 'tasks naming a secret without no_log: '
                                  'true')
        # The secrets task, the facts, the keystone bootstrap, the
        # registration, the seed, the database and RabbitMQ users: the
        # check would be vacuous if it found none of them.
        self.assertGreaterEqual(handled, 7)

    def test_a_task_without_no_log_is_found(self):
        tasks = [{'name': 'leaks', 'ansible.builtin.command':
                  {'argv': ['x'], 'stdin': '{{ aio_db_password }}'}},
                 {'name': 'hidden', 'no_log': True,
                  'ansible.builtin.command': '{{ aio_transport_url }}'},
                 {'name': 'block', 'no_log': True, 'block': [
                     {'name': 'inherits', 'debug': '{{ aio_secrets }}'}]},
                 {'name': 'harmless', 'debug': {'msg': 'aio_host_ip'}}]
        self.assertEqual(['leaks'],
                         unlogged_secret_tasks(tasks_of(tasks)))

    def test_no_secret_on_a_command_line(self):
        # The ways a password used to reach argv: keystone-manage's option,
        # mysql's -p, rabbitmqctl add_user's second argument, the URL of
        # nova-manage map_cell0, aioctl cached's --key.
        argv = re.compile(r'--bootstrap-password|-p\{\{'
                          r'|add_user \{\{[^}]*\}\} \S'
                          r'|--database_connection|key: .*_password')
        for path in task_files():
            with open(path) as f:
                text = f.read()
            self.assertIsNone(argv.search(text), path)


def secret_templates():
    """Names of the templates whose output holds a secret."""
    texts = {}
    for path in glob.glob(os.path.join(TEMPLATES, '*.j2')) + glob.glob(
            os.path.join(PLAYBOOKS, 'roles', '*', 'templates', '*.j2')):
        with open(path) as f:
            texts[os.path.basename(path)] = f.read()
    secret = {n for n, t in texts.items() if SECRET.search(t)}
    grew = True
    while grew:   # a template including or importing a secret one
        grew = False
        for name, text in texts.items():
            if name not in secret and any("'%s'" % s in text
                                          for s in secret):
                secret.add(name)
                grew = True
    return {n for n in secret if not n.startswith('_')}


class FileModesTestCase(base.BaseTestCase):

    def test_secret_templates_are_known(self):
        found = secret_templates()
        for name in ('nova.conf.j2', 'nova-compute.conf.j2',
                     'keystone.conf.j2', 'placement.conf.j2',
                     'glance-api.conf.j2', 'neutron.conf.j2',
                     'cinder.conf.j2', 'clouds.yaml.j2', 'claims.yaml.j2'):
            self.assertIn(name, found)
        for name in ('my.cnf.j2', 'rabbitmq.conf.j2', 'ml2_conf.ini.j2'):
            self.assertNotIn(name, found)

    def test_declared_secret_files_are_0600_and_never_in_a_diff(self):
        # What each role declares (roles/*/templates/files.json.j2) and
        # aio_files' own: a file rendered from a secret template is an
        # entry with mode 0600 of a `secret_files` list (whose content the
        # files module never shows in a diff).
        paths = [os.path.join(TEMPLATES, 'aio-files.json.j2')] + glob.glob(
            os.path.join(PLAYBOOKS, 'roles', '*', 'templates',
                         'files.json.j2'))
        secret = secret_templates()
        lists = re.compile(r"\b(secret_files|files)(?:\.append\(|' *: *\["
                           r"| = \[)")
        seen = set()
        for path in paths:
            with open(path) as f:
                text = f.read()
            for m in re.finditer(r"'(?:[^'\n]*/)?([\w.-]+\.j2)'", text):
                if m.group(1) not in secret:
                    continue
                seen.add(m.group(1))
                before = text[:m.start()]
                entry = before[before.rindex("{'path'"):]
                self.assertIn("'mode': '0600'", entry, (path, m.group(1)))
                self.assertEqual('secret_files',
                                 lists.findall(before)[-1],
                                 (path, m.group(1)))
        for name in ('nova.conf.j2', 'nova-plane.conf.j2', 'keystone.conf.j2',
                     'cinder.conf.j2', 'clouds.yaml.j2'):
            self.assertIn(name, seen)

    def test_template_tasks_write_secret_files_0600(self):
        secret = secret_templates()
        checked = 0
        for path in task_files():
            with open(path) as f:
                for task, _ in tasks_of(yaml.safe_load(f)):
                    args = (task.get('ansible.builtin.template')
                            or task.get('template'))
                    if isinstance(args, dict) and args.get('src') in secret:
                        checked += 1
                        self.assertEqual('0600', str(args.get('mode')),
                                         task.get('name'))
        self.assertGreaterEqual(checked, 1)   # claims.yaml


class WriteFilesModesTestCase(base.BaseTestCase):

    def write_files(self, spec):
        did, _ = aio_files.write_files(spec)
        return 'CHANGED' if did else ''

    def test_files_and_directories_get_their_modes(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        spec = {'dirs': [{'path': tmp + '/data', 'mode': '0750'}],
                'files': [{'path': tmp + '/data/x.conf', 'content': 'pw\n',
                           'mode': '0600'}]}
        self.assertIn('CHANGED', self.write_files(spec))
        self.assertEqual(0o750, stat.S_IMODE(os.stat(tmp + '/data').st_mode))
        self.assertEqual(0o600,
                         stat.S_IMODE(os.stat(tmp + '/data/x.conf').st_mode))
        self.assertNotIn('CHANGED', self.write_files(spec))
        os.chmod(tmp + '/data', 0o755)
        os.chmod(tmp + '/data/x.conf', 0o644)
        self.assertIn('CHANGED', self.write_files(spec))
        self.assertEqual(0o750, stat.S_IMODE(os.stat(tmp + '/data').st_mode))
        self.assertEqual(0o600,
                         stat.S_IMODE(os.stat(tmp + '/data/x.conf').st_mode))


class FakeModule(object):

    def __init__(self, check_mode=False, **params):
        self.check_mode = check_mode
        self.params = dict(existing_cloud=False, legacy={}, overrides={},
                           length=32)
        self.params.update(params)
        self.result = None

    def exit_json(self, **result):
        self.result = result


class AioSecretsTestCase(base.BaseTestCase):

    NAMES = ['admin_password', 'db_password']
    LEGACY = {'admin_password': 'admin', 'db_password': 'secret'}

    def setUp(self):
        super().setUp()
        self.path = os.path.join(
            self.useFixture(fixtures.TempDir()).path, 'secrets.json')

    def run_module(self, check_mode=False, **params):
        module = FakeModule(check_mode=check_mode, path=self.path,
                            names=self.NAMES, **params)
        aio_secrets.run(module)
        return module.result

    def mode(self):
        return stat.S_IMODE(os.stat(self.path).st_mode)

    def test_generated_once_owner_only(self):
        first = self.run_module()
        self.assertTrue(first['changed'])
        self.assertFalse(first['legacy'])
        for value in first['secrets'].values():
            self.assertEqual(32, len(value))
            self.assertEqual(set(), set(value) - set(string.ascii_letters
                                                     + string.digits))
        self.assertNotEqual(first['secrets']['admin_password'],
                            first['secrets']['db_password'])
        self.assertEqual(0o600, self.mode())
        again = self.run_module()
        self.assertFalse(again['changed'])
        self.assertEqual(first['secrets'], again['secrets'])

    def test_a_cloud_built_before_keeps_the_legacy_values(self):
        result = self.run_module(existing_cloud=True, legacy=self.LEGACY)
        self.assertTrue(result['changed'])
        self.assertTrue(result['legacy'])
        self.assertEqual(self.LEGACY, result['secrets'])
        with open(self.path) as f:
            self.assertEqual(self.LEGACY, json.load(f))
        # The file now speaks for the cloud.
        again = self.run_module(existing_cloud=True, legacy={})
        self.assertFalse(again['changed'])
        self.assertEqual(self.LEGACY, again['secrets'])

    def test_a_new_cloud_ignores_the_legacy_values(self):
        result = self.run_module(legacy=self.LEGACY)
        self.assertNotIn('admin', result['secrets'].values())

    def test_an_override_wins_and_is_remembered(self):
        self.run_module()
        result = self.run_module(overrides={'admin_password': 'mine',
                                            'db_password': ''})
        self.assertTrue(result['changed'])
        self.assertEqual('mine', result['secrets']['admin_password'])
        self.assertEqual(32, len(result['secrets']['db_password']))
        self.assertEqual(result['secrets'], self.run_module()['secrets'])

    def test_check_mode_writes_nothing(self):
        result = self.run_module(check_mode=True)
        self.assertTrue(result['changed'])
        self.assertFalse(os.path.exists(self.path))

    def test_a_readable_file_is_made_owner_only(self):
        self.run_module()
        os.chmod(self.path, 0o644)
        self.assertTrue(self.run_module()['changed'])
        self.assertEqual(0o600, self.mode())
        self.assertFalse(self.run_module()['changed'])
