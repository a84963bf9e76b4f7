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
"""Ansible module: a RabbitMQ user, once per name and password."""

DOCUMENTATION = r'''
module: rabbitmq_user
short_description: A RabbitMQ user with every permission on the default vhost
description:
  - Adds I(name) (or changes its password when it exists) and gives it
    every permission (C(".*" ".*" ".*")) on the default vhost.  Setting the
    password counts as a change.
  - rabbitmqctl starts an Erlang VM, which takes a while - this runs once
    per user and password, remembered in I(cache) (the sha256 of both,
    never the password); while they are unchanged nothing runs and the
    task is not changed; a new password runs again.
  - The password reaches rabbitmqctl on its standard input only
    (C(add_user) and C(change_password) read it there when the command line
    has none), never on a command line.
  - Check mode, when the input is not remembered, lists the users and
    changes nothing.
options:
  name: {description: The user., type: str, required: true}
  password: {description: Its password., type: str, required: true,
             no_log: true}
  cache: {description: "Where the sha256 of the input is remembered
          (mode 0600), in RabbitMQ's data directory.", type: path,
          required: true}
  env: {description: "rabbitmqctl's environment: C(RABBITMQ_CONF_ENV_FILE),
        C(ERL_EPMD_PORT).", type: dict, default: {}}
'''

EXAMPLES = r'''
- name: rabbitmq | openstack user
  pending.aio.rabbitmq_user:
    cache: "{{ aio_data }}/rabbitmq/aio-openstack-user"
    name: "{{ aio_rabbit_user }}"
    password: "{{ aio_rabbit_password }}"
    env:
      RABBITMQ_CONF_ENV_FILE: "{{ aio_etc }}/rabbitmq/rabbitmq-env.conf"
      ERL_EPMD_PORT: "{{ aio_ports.epmd }}"
  no_log: true
'''

RETURN = r'''
cached: {description: The input was remembered - nothing ran., type: bool,
         returned: success}
created: {description: The user did not exist (when it last ran, if
          cached)., type: bool, returned: success}
'''

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_backends)

ARGUMENT_SPEC = dict(
    name=dict(type='str', required=True),
    password=dict(type='str', required=True, no_log=True),
    cache=dict(type='path', required=True),
    env=dict(type='dict', default={}))


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC,
                           supports_check_mode=True)
    p = module.params
    try:
        changed, details, cached = aio_backends.rabbitmq_user(
            p['cache'], p['name'], p['password'], env=p['env'],
            check=module.check_mode)
    except (aio_backends.BackendError, OSError) as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=changed, cached=cached, **details)


if __name__ == '__main__':
    main()
