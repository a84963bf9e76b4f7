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
"""Ansible module: RabbitMQ vhosts, a user with every permission on each."""

DOCUMENTATION = r'''
module: rabbitmq_vhosts
short_description: RabbitMQ vhosts, a user with every permission on each
description:
  - Adds each of I(vhosts) that is missing and gives I(user) every
    permission (C(".*" ".*" ".*")) on each where it lacks them; changed
    only when it added a vhost or set permissions.  A vhost no longer
    listed is left in place.
  - rabbitmqctl starts an Erlang VM, which takes a while - this runs once
    per distinct user and list, remembered in I(cache) (their sha256);
    while they are unchanged nothing runs and the task is not changed.
  - Check mode, when the input is not remembered, lists the vhosts and
    permissions and changes nothing.
options:
  user: {description: The user (it exists)., type: str, required: true}
  vhosts: {description: The vhosts., type: list, elements: str,
           required: true}
  cache: {description: "Where the sha256 of the input is remembered
          (mode 0600), in RabbitMQ's data directory.", type: path,
          required: true}
  env: {description: "rabbitmqctl's environment: C(RABBITMQ_CONF_ENV_FILE),
        C(ERL_EPMD_PORT).", type: dict, default: {}}
'''

EXAMPLES = r'''
- name: rabbitmq | a vhost per nova control plane
  pending.aio.rabbitmq_vhosts:
    cache: "{{ aio_data }}/rabbitmq/aio-plane-vhosts"
    user: "{{ aio_rabbit_user }}"
    vhosts: [nova-a, nova-b]
    env:
      RABBITMQ_CONF_ENV_FILE: "{{ aio_etc }}/rabbitmq/rabbitmq-env.conf"
      ERL_EPMD_PORT: "{{ aio_ports.epmd }}"
'''

RETURN = r'''
cached: {description: The input was remembered - nothing ran., type: bool,
         returned: success}
added: {description: The vhosts added (in check mode - to add)., type: list,
        elements: str, returned: success}
permitted: {description: The vhosts on which the user's permissions were
            set., type: list, elements: str, returned: success}
'''

try:
    from ansible.module_utils.basic import AnsibleModule
except ImportError:  # the unit tests run without Ansible
    AnsibleModule = None

from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_backends)

ARGUMENT_SPEC = dict(
    user=dict(type='str', required=True),
    vhosts=dict(type='list', elements='str', required=True),
    cache=dict(type='path', required=True),
    env=dict(type='dict', default={}))


def main():
    module = AnsibleModule(argument_spec=ARGUMENT_SPEC,
                           supports_check_mode=True)
    p = module.params
    try:
        changed, details, cached = aio_backends.rabbitmq_vhosts(
            p['cache'], p['user'], p['vhosts'], env=p['env'],
            check=module.check_mode)
    except (aio_backends.BackendError, OSError) as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=changed, cached=cached, **details)


if __name__ == '__main__':
    main()
