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
"""The plugin package's rooms: what may import what.

The plugin (``pending_tempest_plugin``, what a wheel installs) stands on
its own: nothing in it, its unit tests included, imports the embedded
cloud's tooling (``pending_aio``), the Ansible collection
(``ansible_collections``, the collection's ``module_utils``) or the
devstack plugin, and nothing puts a path on ``sys.path``.  Inside it,
``runner/`` is built on ``conformance/`` and never the other way round.
"""

import ast
import os

import fixtures
from oslotest import base

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Top-level modules the plugin never imports.
FOREIGN = ('pending_aio', 'ansible_collections', 'aio_apt', 'aio_cache',
           'aio_common', 'aio_files', 'aio_ports', 'aio_steps',
           'aio_supervisor', 'pending_policy', 'devstack')


def modules(root):
    """(path relative to the package, parsed module) of every .py."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != '__pycache__']
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                with open(path) as f:
                    yield (os.path.relpath(path, PACKAGE),
                           ast.parse(f.read(), path))


def imported(tree):
    """Every module name an ``import`` or ``from ... import`` names."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            for alias in node.names:
                yield '%s.%s' % (node.module, alias.name)


def path_changes(tree):
    """Lines that change ``sys.path`` (insert, append, extend, assign)."""
    for node in ast.walk(tree):
        target = None
        if (isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ('insert', 'append', 'extend')):
            target = node.func.value
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = getattr(node, 'targets', None) or [node.target]
            target = targets[0]
        if (isinstance(target, ast.Attribute) and target.attr == 'path'
                and isinstance(target.value, ast.Name)
                and target.value.id == 'sys'):
            yield node.lineno


def violations(root, rule):
    return ['%s: %s' % (path, what) for path, tree in modules(root)
            for what in rule(path, tree)]


def foreign_imports(path, tree):
    for name in imported(tree):
        if name.split('.')[0] in FOREIGN:
            yield 'imports %s' % name
    for line in path_changes(tree):
        yield 'changes sys.path (line %d)' % line


def conformance_imports_runner(path, tree):
    if path.startswith('conformance' + os.sep):
        for name in imported(tree):
            if name.startswith('pending_tempest_plugin.runner'):
                yield 'imports %s' % name


class TestLayout(base.BaseTestCase):

    def test_the_plugin_imports_none_of_the_other_rooms(self):
        self.assertEqual([], violations(PACKAGE, foreign_imports))

    def test_conformance_never_imports_the_runner(self):
        self.assertEqual([], violations(PACKAGE, conformance_imports_runner))

    def test_the_rules_catch_what_they_forbid(self):
        tmp = self.useFixture(fixtures.TempDir()).path
        os.makedirs(os.path.join(tmp, 'conformance'))
        with open(os.path.join(tmp, 'conformance', 'x.py'), 'w') as f:
            f.write('import sys\n'
                    'from pending_aio import sh\n'
                    'from pending_tempest_plugin.runner import claims\n'
                    'sys.path.insert(0, "/elsewhere")\n'
                    'import ansible_collections.pending.aio\n')
        rel = os.path.relpath(os.path.join(tmp, 'conformance', 'x.py'),
                              PACKAGE)
        self.assertEqual(
            ['%s: imports pending_aio' % rel,
             '%s: imports pending_aio.sh' % rel,
             '%s: imports ansible_collections.pending.aio' % rel,
             '%s: changes sys.path (line 4)' % rel],
            violations(tmp, foreign_imports))
        self.assertEqual([], violations(tmp, conformance_imports_runner),
                         'a path outside the package is no conformance '
                         'module')
        tree = ast.parse('from pending_tempest_plugin.runner import claims\n')
        self.assertEqual(
            ['imports pending_tempest_plugin.runner',
             'imports pending_tempest_plugin.runner.claims'],
            list(conformance_imports_runner(
                os.path.join('conformance', 'x.py'), tree)))
