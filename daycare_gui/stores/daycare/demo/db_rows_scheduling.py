"""The small demo's rows of what sets its agents to work: the inbox, cron and heartbeat tasks, and signals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from daycare_gui.stores.daycare.demo.ids import DAY, HOUR, MINUTE, cuid, dumps, token

if TYPE_CHECKING:  # a type only: db_rows, which defines it, imports this module to build the model
    from daycare_gui.stores.daycare.demo.db_rows import DemoModel


def add_inbox(m: DemoModel, rng) -> None:
    a = m.agents
    ctx = {"messageId": "4107", "permissionTags": ["@read:/home/demo/.daycare/users"]}
    items = [
        # fresh: posted minutes ago, still being handled
        (a["alex_telegram"], m.now - 2 * MINUTE, {"type": "message", "message": {
            "text": "Also book a table for Saturday lunch in Belém?", "files": []}, "context": {"messageId": "4112"}}),
        (a["sam_telegram"], m.now - 40_000, {"type": "message", "message": {
            "text": "what can I make with leftover rice", "files": []}, "context": ctx}),
        (a["perm_ops"], m.now - 5 * MINUTE, {"type": "system_message", "text": "Backup job finished: 14.2 GB, 0 errors",
                                              "origin": a["sys_heartbeat"], "silent": True}),
        (a["sys_memory"], m.now - MINUTE, {"type": "compact", "context": {"messageId": "cmp-77"}}),
        # stuck: posted days ago and never handled (the engine died or the agent is wedged)
        (a["jordan_discord"], m.now - 4 * DAY, {"type": "message", "message": {
            "text": "are you there? the bot stopped answering", "files": []}, "context": {"messageId": "99120"}}),
        (a["app_recipes"], m.now - 6 * DAY - 3 * HOUR, {"type": "signal", "signal": {
            "id": "sig_" + token(rng, 12).lower(), "type": "user.shopping.updated",
            "source": {"type": "agent", "id": a["sam_telegram"], "userId": m.users["sam"]},
            "data": {"items": ["feta"]}, "createdAt": m.now - 6 * DAY - 3 * HOUR}, "subscriptionPattern": "user.shopping.*"}),
        (a["alex_whatsapp"], m.now - 9 * DAY, {"type": "reset", "message": "Start fresh please",
                                                "context": {"messageId": "wamid.HBgL"}}),
        (a["sub_pdf"], m.now - 3 * DAY, {"type": "restore"}),
        # a cron run queued days ago and never handled: the automations page shows it still running
        (a["cron_review"], m.now - 2 * DAY - 7 * HOUR, {"type": "system_message", "text": "[cron]\ntaskId: weekly-review\n"
                                                         f"taskUid: {m.cron_ids['weekly-review']}\ntaskName: Weekly review",
                                                         "origin": "cron", "execute": True,
                                                         "code": ["print(open('~/documents/week.md').read())"]}),
    ]
    for agent_id, posted, item in items:
        m.add("inbox", id=cuid(rng), agent_id=agent_id, posted_at=posted, type=item["type"], data=dumps(item))


def add_tasks(m: DemoModel, rng) -> None:
    owner, sam = m.users["owner"], m.users["sam"]
    # Specs shared with files.py: "file" = how TASK.md spells it, "row" = whether a tasks_cron row exists.
    m.cron = [
        {"dir": "daily-digest", "task_uid": m.cron_ids["daily-digest"], "name": "Daily digest",
         "description": "Morning summary of mail, calendar and deadlines", "schedule": "0 7 * * *",
         "code": "Summarise unread email, today's calendar and anything due this week. Keep it under 150 words.",
         "agent_id": m.agents["cron_digest"], "user_id": owner, "enabled": 1, "delete_after_run": 0,
         "last_run_at": m.now - 5 * HOUR, "style": "modern", "row": True},
        {"dir": "weekly-review", "task_uid": m.cron_ids["weekly-review"], "name": "Weekly review",
         "description": None, "schedule": "0 18 * * 0",
         "code": "Review the week: what got done, what slipped, and the top three priorities for next week.",
         "agent_id": m.agents["cron_review"], "user_id": owner, "enabled": 1, "delete_after_run": 0,
         "last_run_at": m.now - 7 * DAY + 6 * HOUR, "style": "legacy", "row": True},
        {"dir": "dentist-reminder", "task_uid": "x1c9v8b7n6m5a4s3d2f1g0hj", "name": "Dentist reminder",
         "description": "One-off: remind me on the morning of the appointment", "schedule": "30 8 4 3 *",
         "code": "Remind Alex: dentist at 17:00 today, bring the insurance card.", "agent_id": None,
         "user_id": owner, "enabled": 1, "delete_after_run": 1, "last_run_at": None, "style": "commented", "row": True},
        {"dir": "backup-photos", "task_uid": "b4ck9p7h0t0s2s5y6n7c8q1w", "name": "Back up photos",
         "description": "Disabled while the NAS is being replaced", "schedule": "15 3 * * *",
         "code": "Copy new photos from ~/downloads to the NAS and report how many were copied.", "agent_id": None,
         "user_id": owner, "enabled": 0, "delete_after_run": 0, "last_run_at": m.now - 20 * DAY, "style": "disabled",
         "row": True},
        {"dir": "plant-photos", "task_uid": "q9w8e7r6t5y4u3i2o1p0lkjh", "name": "Plant photo diary",
         "description": None, "schedule": "0 12 * * 6", "code": "Ask Sam for a photo of the balcony plants.",
         "agent_id": None, "user_id": sam, "enabled": 1, "delete_after_run": 0, "last_run_at": None,
         "style": "modern", "row": False},  # written after the import ran: file only
        {"dir": "standup-notes", "task_uid": "s7t6a5n4d3u2p1n0o9t8e7sz", "name": "Stand-up notes",
         "description": "Created by the engine directly in the database", "schedule": "25 9 * * 1-5",
         "code": "Draft stand-up notes from yesterday's commits.", "agent_id": None, "user_id": owner, "enabled": 1,
         "delete_after_run": 0, "last_run_at": m.now - 3 * HOUR, "style": None, "row": True},  # row only
    ]
    for i, spec in enumerate(m.cron):
        if not spec["row"]:
            continue
        created = m.now - (30 - i) * DAY
        m.add("tasks_cron", id=spec["dir"], task_uid=spec["task_uid"], user_id=spec["user_id"], name=spec["name"],
              description=spec["description"], schedule=spec["schedule"], code=spec["code"], agent_id=spec["agent_id"],
              enabled=spec["enabled"], delete_after_run=spec["delete_after_run"], last_run_at=spec["last_run_at"],
              created_at=created, updated_at=created + 2 * DAY)
    m.heartbeat_last_run = m.now - 25 * MINUTE
    m.heartbeats = [
        {"file": "check-inbox.md", "id": "check-inbox", "title": "Check inbox", "style": "frontmatter",
         "code": "Look at unread email and messages. Anything that needs a reply today goes to Alex.", "row": True},
        {"file": "Plant Care.md", "id": "plant-care", "title": "Plant care", "style": "heading",
         "code": "If the monstera has not been watered for 7 days, remind Alex.\nFertilise on the first Sunday of the month.",
         "row": True},
        {"file": "budget-watch.md", "id": "budget-watch", "title": "Budget watch", "style": "frontmatter",
         "code": "Warn if grocery spending this month is more than 20% above last month.", "row": False},
    ]
    for i, spec in enumerate(m.heartbeats):
        if spec["row"]:
            created = m.now - (28 - i) * DAY
            m.add("tasks_heartbeat", id=spec["id"], title=spec["title"], code=spec["code"],
                  last_run_at=m.heartbeat_last_run, created_at=created, updated_at=created + DAY, user_id=owner)
    m.add("tasks_heartbeat", id="weekly-budget", title="Weekly budget", code="Summarise spending by category.",
          last_run_at=None, created_at=m.now - 3 * DAY, updated_at=m.now - 3 * DAY, user_id=sam)


def add_signals(m: DemoModel, rng) -> None:
    owner, sam = m.users["owner"], m.users["sam"]
    a = m.agents
    m.signal_events = [
        ("sig_" + token(rng, 16).lower(), owner, "internal.heartbeat.tick", {"type": "system", "userId": owner},
         {"tasks": [{"id": "check-inbox"}, {"id": "plant-care"}]}, m.now - 25 * MINUTE),
        ("sig_" + token(rng, 16).lower(), owner, "github.push", {"type": "webhook", "id": "wh_github", "userId": owner},
         {"repo": "alex/blog", "ref": "refs/heads/main", "commits": 3}, m.now - 3 * HOUR),
        ("sig_" + token(rng, 16).lower(), sam, "user.shopping.updated", {"type": "agent", "id": a["sam_telegram"], "userId": sam},
         {"items": ["feta"]}, m.now - 6 * DAY - 3 * HOUR),
        ("sig_" + token(rng, 16).lower(), owner, "process.exited", {"type": "process", "id": "proc-photo-sync"},
         {"exitCode": 1}, m.now - 2 * DAY),
        ("sig_" + token(rng, 16).lower(), owner, "channel.message", {"type": "agent", "id": a["perm_ops"], "userId": owner},
         {"channelName": "ops", "text": "@alex backups are green"}, m.now - 5 * HOUR),
        ("sig_legacy1", "usr_x", "internal.heartbeat.tick", {"type": "system", "userId": "usr_x"},
         {"tasks": [{"id": "daily"}]}, m.now - 20 * DAY),  # imported from events.jsonl; names a user that never existed
    ]
    for sid, user, typ, source, data, created in m.signal_events:
        m.add("signals_events", id=sid, user_id=user, type=typ, source=dumps(source),
              data=dumps(data) if data is not None else None, created_at=created)
    subs = [(owner, a["perm_ops"], "github.*", 0), (sam, a["app_recipes"], "user.shopping.*", 0),
            (owner, a["sys_heartbeat"], "internal.heartbeat.*", 1), (owner, a["alex_telegram"], "process.exited", 0)]
    for i, (user, agent, pattern, silent) in enumerate(subs):
        created = m.now - (20 - i) * DAY
        m.add("signals_subscriptions", id=cuid(rng), user_id=user, agent_id=agent, pattern=pattern, silent=silent,
              created_at=created, updated_at=created)
    m.delayed = [
        ("sig_delay_" + token(rng, 8).lower(), owner, "internal.reminder", m.now + 2 * HOUR, {"type": "system"},
         {"text": "Call the landlord about the heating"}, None, m.now - HOUR),
        ("sig_delay_" + token(rng, 8).lower(), owner, "cron.tick", m.now + 19 * HOUR,
         {"type": "agent", "id": a["cron_digest"]}, None, "daily-digest", m.now - 5 * HOUR),
        ("sig_delay_" + token(rng, 8).lower(), sam, "webhook.retry", m.now - 2 * DAY, {"type": "webhook", "id": "wh_strava"},
         {"attempt": 3}, None, m.now - 3 * DAY),  # overdue: deliver_at in the past
    ]
    for sid, user, typ, deliver, source, data, repeat, created in m.delayed:
        m.add("signals_delayed", id=sid, user_id=user, type=typ, deliver_at=deliver, source=dumps(source),
              data=dumps(data) if data is not None else None, repeat_key=repeat, created_at=created, updated_at=created)
