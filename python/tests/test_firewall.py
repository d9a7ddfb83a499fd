"""A cluster's own firewall from the client's arguments: what
``firewall_spec`` a Cluster's arguments become, where "me" is, and what a local-backend user gets
by default (nothing to refuse) or when they ask (the server's reason). The mapping against a
recorded server answer; "me" and the refusal against a real server."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import unittest

from cumulus import firewall
from cumulus.http import Api, ArgumentError, CumulusError
from tests.harness import CumulusServer, client_env

AWS_ANSWER = {"backend": "vm_aws", "options": {"provider_name": "aws", "scheduler_port": 8786},
              "capabilities": {"ssh": True, "firewall": True}}
LOCAL_ANSWER = {"backend": "in_process", "options": {"provider_name": "local"},
                "capabilities": {"ssh": False, "firewall": False}}


class RecordedApi:
    """The two answers the firewall asks for, and which calls it made."""

    def __init__(self, backend: dict, ip: str = "198.51.100.7"):
        self.backend = backend
        self.ip = ip
        self.calls: list = []

    def request(self, method, path, **kwargs):
        self.calls.append(path)
        if path.endswith("/backend_options/"):
            return self.backend
        if path == "/api/v2/user/source-ip":
            return {"ip": self.ip}
        raise AssertionError(path)


def spec(backend=AWS_ANSWER, ip="198.51.100.7", **given) -> dict:
    return firewall.fields_for(RecordedApi(backend, ip), "ws", firewall.check("Cluster", given))


class MappingTest(unittest.TestCase):
    def test_by_default_the_scheduler_port_opens_to_the_callers_address(self):
        self.assertEqual(spec(), {"options": {"firewall_spec": {"ingress": [{"ports": [8786], "cidr": "198.51.100.7/32"}]}},
                                  "scheduler_options": {}})

    def test_an_ipv4_mapped_address_is_its_ipv4_one(self):
        rules = spec(ip="::ffff:203.0.113.9")["options"]["firewall_spec"]["ingress"]
        self.assertEqual(rules, [{"ports": [8786], "cidr": "203.0.113.9/32"}])

    def test_ssh_and_extra_ports_open_to_the_same_source(self):
        rules = spec(allow_ingress_from="everyone", allow_ssh=True, allow_spark=False, open_extra_ports=[9000, 22])
        self.assertEqual(rules["options"]["firewall_spec"],
                         {"ingress": [{"ports": [22, 8786, 9000], "cidr": "0.0.0.0/0"}]})

    def test_spark_is_refused_by_name_no_port_opens_onto_nothing(self):
        with self.assertRaises(ArgumentError) as caught:
            spec(allow_spark=True)
        self.assertIn("Cluster(allow_spark=True)", str(caught.exception))
        self.assertIn("no Spark Connect server", str(caught.exception))

    def test_ssh_from_an_office_is_its_own_rule(self):
        out = spec(allow_ingress_from="10.1.2.3/16", allow_ssh_from="203.0.113.0/24")
        self.assertEqual(out["options"]["firewall_spec"]["ingress"], [
            {"ports": [8786], "cidr": "10.1.0.0/16"},
            {"ports": [22], "cidr": "203.0.113.0/24"},
        ])

    def test_ssh_from_me_and_the_scheduler_from_everyone(self):
        out = spec(allow_ingress_from="everyone", allow_ssh_from="me")
        self.assertEqual(out["options"]["firewall_spec"]["ingress"], [
            {"ports": [8786], "cidr": "0.0.0.0/0"},
            {"ports": [22], "cidr": "198.51.100.7/32"},
        ])

    def test_a_scheduler_port_moves_the_scheduler_and_its_rule(self):
        out = spec(scheduler_port=443, allow_ssh=True)
        self.assertEqual(out["scheduler_options"], {"port": 443})
        self.assertEqual(out["options"]["firewall_spec"]["ingress"], [{"ports": [22, 443], "cidr": "198.51.100.7/32"}])

    def test_a_bare_address_is_its_32(self):
        out = spec(allow_ingress_from="192.0.2.44")
        self.assertEqual(out["options"]["firewall_spec"]["ingress"][0]["cidr"], "192.0.2.44/32")

    def test_me_is_asked_of_the_server_only_when_used(self):
        api = RecordedApi(AWS_ANSWER)
        firewall.fields_for(api, "ws", firewall.check("Cluster", {"allow_ingress_from": "everyone"}))
        self.assertNotIn("/api/v2/user/source-ip", api.calls)

    def test_a_server_that_does_not_say_its_scheduler_port_gets_8786(self):
        answer = {"backend": "vm_aws", "options": {}, "capabilities": {"firewall": True}}
        self.assertEqual(spec(answer)["options"]["firewall_spec"]["ingress"][0]["ports"], [8786])

    def test_an_ipv6_me_is_refused_saying_what_to_give(self):
        with self.assertRaises(CumulusError) as caught:
            spec(ip="2001:db8::1")
        self.assertIn("2001:db8::1", str(caught.exception))
        self.assertIn("give allow_ingress_from a CIDR", str(caught.exception))

    def test_the_local_backend_gets_no_default_firewall(self):
        api = RecordedApi(LOCAL_ANSWER)
        out = firewall.fields_for(api, "ws", firewall.check("Cluster", {}))
        self.assertEqual(out, {"options": {}, "scheduler_options": {}})
        self.assertNotIn("/api/v2/user/source-ip", api.calls)

    def test_a_firewall_asked_on_the_local_backend_is_sent_for_the_server_to_refuse(self):
        out = spec(LOCAL_ANSWER, allow_ssh=True)
        self.assertIn("firewall_spec", out["options"])

    def test_wrong_arguments_are_refused_naming_them(self):
        cases = [
            ({"allow_ingress_from": "office"}, 'Cluster(allow_ingress_from=\'office\'): allow_ingress_from must be "me"'),
            ({"allow_ingress_from": "2001:db8::/32"}, "an IPv4 CIDR"),
            ({"allow_ssh": "yes"}, "Cluster(allow_ssh='yes'): allow_ssh must be True or False."),
            ({"scheduler_port": 70000}, "scheduler_port must be a port number from 1 to 65535."),
            ({"open_extra_ports": [80, 0]}, "Cluster(open_extra_ports=0)"),
            ({"allow_ssh": False, "allow_ssh_from": "me"}, "SSH is either open or not"),
        ]
        for given, words in cases:
            with self.subTest(given=given), self.assertRaises(ArgumentError) as caught:
                firewall.check("Cluster", given)
            self.assertIn(words, str(caught.exception))


server: CumulusServer


def setUpModule():
    global server
    server = CumulusServer().start()


def tearDownModule():
    server.close()


class AgainstTheServerTest(unittest.TestCase):
    def test_me_is_where_the_server_sees_this_machine(self):
        user = server.register()
        api = Api(server.url, server.api_token(user))
        self.assertEqual(firewall.my_address(api), "127.0.0.1/32")

    def test_a_firewall_asked_on_the_local_backend_is_refused_with_the_servers_reason(self):
        user = server.register()
        env = client_env(server, tempfile.mkdtemp(), CUMULUS_API_TOKEN=server.api_token(user))
        code = "import cumulus\ncumulus.Cluster(n_workers=0, package_sync=False, allow_ssh=True, timeout=60)"
        result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("Cluster(allow_ssh=True): This server's local backend runs instances as processes on its own "
                      "machine, behind no firewall of Cumulus's", result.stderr)


if __name__ == "__main__":
    unittest.main()
