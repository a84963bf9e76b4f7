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
"""The table of actions on a PENDING server: the test's and the docs'."""

import os
import re

from oslotest import base

from pending_tempest_plugin.common import pending_actions

DOC = os.path.join(os.path.dirname(__file__), '..', '..', 'doc', 'source',
                   'reference', 'interpretation.rst')


def doc_rows():
    """The rows of the list-table of section interp-pending-actions."""
    with open(DOC) as f:
        text = f.read()
    section = text.split('.. _interp-pending-actions:', 1)[1]
    table = section.split('.. list-table::', 1)[1].split('**Tests.**')[0]
    rows = []
    for item in re.split(r'^   \* - ', table, flags=re.M)[1:]:
        cells = [cell.strip() for cell in
                 re.split(r'^     - ', item, flags=re.M)]
        rows.append(tuple(' '.join(cell.split()) for cell in cells))
    return rows


class TestTable(base.BaseTestCase):

    def test_doc_table_is_the_tests_table(self):
        expected = [('Action', 'Caller', 'From', 'Answer')]
        rows = list(pending_actions.table_rows())
        rows.extend(pending_actions.REFERENCED)
        for name, persona, version, answer in rows:
            expected.append(('``%s``' % name, persona, version or 'any',
                             answer))
        self.assertEqual(expected, doc_rows())

    def test_every_action_has_a_known_answer_and_caller(self):
        names = [action[0] for action in pending_actions.ACTIONS]
        self.assertEqual(len(names), len(set(names)))
        for name, persona, version, answer, call in pending_actions.ACTIONS:
            self.assertIn(answer, pending_actions.ANSWERS, name)
            self.assertIn(persona, ('owner', 'admin'), name)
            self.assertTrue(callable(call), name)
        for name in pending_actions.NEEDS_NETWORK:
            self.assertIn(name, names)
