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
"""Ansible module: the services' MariaDB user and databases."""

DOCUMENTATION = r'''
module: mariadb_users
short_description: The services' MariaDB user and their databases
description:
  - Creates I(user) at C(localhost) and C(127.0.0.1) with I(password) and
    every privilege (C(GRANT ALL ON *.*)), and each of I(databases), unless
    both user rows and every database already exist (then nothing is
    written and the task is not changed).
  - root connects on the socket named in I(defaults_file) (unix_socket
    authentication, no password), as C(mysql --defaults-file=... -uroot -N).
  - The password reaches mysql only inside the SQL it reads on its
    standard input, never on a command line.
  - Check mode reads what exists and writes nothing.
options:
  defaults_file: {description: mysql's option file (its socket)., type: path,
                  required: true}
  user: {description: The services' user (a plain SQL name)., type: str,
         required: true}
  password: {description: Its password., type: str, required: true,
             no_log: true}
  databases: {description: The databases (plain SQL names)., type: list,
              elements: str, default: []}
'''

EXAMPLES = r'''
- name: mariadb | service user and databases
  pending.aio.mariadb_users:
    defaults_file: "{{ aio_etc }}/my.cnf"
    user: "{{ aio_db_user }}"
    password: "{{ aio_db_password }}"
    databases: [keystone, nova_api, nova]
  no_log: true
'''

RETURN = r'''
user_rows: {description: Rows of the user in mysql.user before the task.,
            type: int, returned: success}
databases_present: {description: "Of the databases, how many existed before.",
                    type: int, returned: success}
'''

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_backends)

ARGUMENT_SPEC = dict(
    defaults_file=dict(type='path', required=True),
    user=dict(type='str', required=True),
    password=dict(type='str', required=True, no_log=True),
    databases=dict(type='list', elements='str', default=[]))


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC,
                           supports_check_mode=True)
    p = module.params
    try:
        changed, details = aio_backends.mariadb_users(
            p['defaults_file'], p['user'], p['password'], p['databases'],
            check=module.check_mode)
    except aio_backends.BackendError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=changed, **details)


if __name__ == '__main__':
    main()
