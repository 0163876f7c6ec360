"""Realistic document texts for the demo files (knowledge, apps, skills, memory, plugin docs)."""

from __future__ import annotations

from daycare_gui.stores.daycare.demo.ids import FAKE_ROOT, iso


def cron_memory(name: str) -> str:
    return (f"# {name} — memory\n\n- 2026-02-24: Alex prefers the digest without newsletters.\n"
            "- 2026-02-26: Skip weekends unless something is due on Monday.\n")


def process_log(record: dict) -> str:
    started = iso(record["lastStartedAt"])
    lines = [f"[{started}] starting: {record['command']}", f"[{started}] cwd={record['cwd']}"]
    if record["status"] == "running":
        lines += [f"[{started}] listening on http://127.0.0.1:8080", f"[{started}] ready in 812 ms"]
    elif record["status"] == "exited":
        lines += [f"[{started}] syncing 41 new files", f"[{started}] ERROR: /mnt/nas/photos: Transport endpoint is not connected",
                  f"[{iso(record['lastExitedAt'])}] exited with code 1"]
    else:
        lines += [f"[{iso(record['lastExitedAt'])}] stopped by user"]
    return "\n".join(lines) + "\n"


APPS = [
    {"id": "deploy-check", "name": "deploy-check", "title": "Deploy Check", "description": "Validate deploy readiness",
     "model": "claude-sonnet-4-5",
     "prompt": "You are a deploy assistant focused on safety checks.\n\n- Run the build and the tests\n"
               "- Report uncommitted files\n- **Never** push or deploy yourself",
     "intent": "Needs to read the blog repository and run the build; network only to fetch npm packages.",
     "allow": ["@read:{home}/developer/blog", "@write:{home}/developer/blog/dist", "@network"],
     "deny": ["@write:/", "@read:{home}/.ssh"], "granted": ["@read:{home}/developer/blog", "@network"]},
    {"id": "recipe-planner", "name": "recipe-planner", "title": "Recipe Planner",
     "description": "Plan dinners from what is in the fridge", "model": None,
     "prompt": "Plan vegetarian dinners for two. Use the shopping list tool to add missing items.",
     "intent": "Reads the shared shopping list; no network.",
     "allow": ["@read:{home}/documents/shopping-list.md", "@write:{home}/documents/shopping-list.md"],
     "deny": ["@network"], "granted": ["@read:{home}/documents/shopping-list.md"]},
]


def _home(user_id: str) -> str:
    return f"{FAKE_ROOT}/users/{user_id}/home"


def app_md(app: dict) -> str:
    front = [f"name: {app['name']}", f"title: {app['title']}", f"description: {app['description']}"]
    if app["model"]:
        front.append(f"model: {app['model']}")
    return "---\n" + "\n".join(front) + "\n---\n" + app["prompt"] + "\n"


def permissions_md(app: dict, user_id: str) -> str:
    home = _home(user_id)
    allow = "\n".join(f"- {r.format(home=home)}" for r in app["allow"])
    deny = "\n".join(f"- {r.format(home=home)}" for r in app["deny"])
    return f"## Source Intent\n\n{app['intent']}\n\n## Rules\n\n### Allow\n{allow}\n\n### Deny\n{deny}\n"


def app_granted(app: dict, user_id: str) -> list[str]:
    return [r.format(home=_home(user_id)) for r in app["granted"]]


def knowledge_files(role: str) -> dict[str, str]:
    person = {"owner": "Alex Rivera", "sam": "Sam Okafor", "mia": "Mia Rivera", "jordan": "Jordan Lee"}[role]
    return {
        "SOUL.md": "# Soul\n\nYou are calm, direct and a little playful. You say when you are unsure.\n"
                   "You never invent facts about people.\n",
        "USER.md": f"# {person}\n\n- Lives in Berlin (Europe/Berlin)\n- Prefers short answers, metric units\n"
                   + ("- Flatmate: Sam; daughter: Mia (11)\n" if role == "owner" else ""),
        "AGENTS.md": "# Agents\n\n| Agent | Does |\n|---|---|\n| Ops Helper | home server |\n"
                     "| Librarian | books and notes |\n| Deploy Check | blog builds |\n",
        "TOOLS.md": "# Tools\n\n- `web_search` — Brave, max 10 results\n- `exec` — sandboxed shell in `~/developer`\n"
                    "- `run_python` — for anything with numbers\n",
        "MEMORY.md": "# Memory\n\n## Preferences\n- Coffee: flat white, no sugar\n- Hates voice notes\n\n"
                     "## Open loops\n- [ ] Heating service Thursday 8–12\n- [x] Book Lisbon flights\n",
    }


OWNER_DOCUMENTS = {
    "documents/lisbon-trip.md": "# Lisbon trip\n\n- Flights: FR1882, Fri 13 Mar 06:30\n- Hotel: Casa do Largo, Alfama\n"
                                "- [ ] Fado dinner booked\n- [ ] EU plug adapter\n",
    "documents/shopping-list.md": "# Shopping\n\n- oat milk\n- feta\n- lemons\n- rice\n- coffee beans\n- café crème pods\n"
                                  "- bin bags\n",
    "desktop/todo.txt": "call landlord\nrenew passport (expires June)\nfix blog build (sass)\n",
    "developer/blog/README.md": "# blog\n\nStatic site built with Vite.\n\n```sh\nnpm install\nnpm run build\n```\n",
}

PHOTO_LIST = "".join(f"IMG_{4000 + i}.{'HEIC' if i % 45 == 0 else 'jpg'}\n" for i in range(412))

BANK_CSV = "date,payee,category,amount\n" + "".join(
    f"2026-02-{(i % 28) + 1:02d},{('Lidl', 'Edeka', 'Markthalle Neun', 'BVG', 'Vattenfall')[i % 5]},"
    f"{('Groceries', 'Groceries', 'Groceries', 'Transport', 'Utilities')[i % 5]},{(i * 7.31) % 60 + 3:.2f}\n"
    for i in range(40))

USER_SKILLS = {
    "expense-report": "---\nname: Expense report\ndescription: Turn a bank CSV export into a monthly summary\n"
                      "sandbox: true\npermissions:\n  - \"@read:" + FAKE_ROOT + "/users\"\n---\n"
                      "Use `run_python` to group by category and month. Output a Markdown table.\n",
    "trip-planner": "---\nname: Trip planner\ndescription: Day-by-day itinerary with bookings\nsandbox: false\n---\n"
                    "1. Ask for dates and arrival times\n2. Search events\n3. Offer to create calendar entries\n",
}

SAM_SKILL = ("---\nname: Meal planner\ndescription: Weekly vegetarian meal plan from the shopping list\nsandbox: true\n"
             "permissions:\n  - \"@read:" + FAKE_ROOT + "/users\"\n  - \"@network\"\n---\n"
             "Plan five dinners. Reuse ingredients across meals.\n")

CONFIG_SKILLS = {
    "sql-migration-helper": "---\nname: SQL Migration Helper\ndescription: Generate safe SQL migrations\nsandbox: true\n"
                            "permissions:\n  - \"@read:" + FAKE_ROOT + "/workspace\"\n---\n"
                            "Use this skill when planning schema migrations. Always write a rollback.\n",
    "weekly-review": "---\nname: Weekly review\ndescription: Reflect on the week and plan the next\n---\n"
                     "Ask three questions: what went well, what slipped, what matters next week.\n",
}

# The memory plugin lists its entities as bare "- <entity>" lines; anything else in INDEX.md is ignored.
MEMORY_INDEX = "# Memory Index\n\n- people\n- home\n- incidents\n"

MEMORY_ENTITIES = {
    "people": "---\nname: \"People\"\ndescription: \"Family, friends and colleagues Alex mentions\"\n---\n# people\n\n"
              "## sam\nAlex's flatmate; vegetarian; shares the shopping list.\n\n"
              "## mia\nAlex's daughter, 11. Homework help: explain, don't solve.\n\n"
              "## jordan\nColleague from the old job; plays chess on Discord.\n",
    "home": "---\nname: Home\ndescription: The flat, the home server and the plants\n---\n# home\n\n"
            "## server\nIntel NUC, Debian 12, 256 GB SSD + NAS at /mnt/nas.\n\n"
            "## plants\nMonstera (water weekly), two basil pots on the balcony.\n",
    "incidents": "---\nname: \"Deployment Incidents\"\ndescription: \"Recent deploy failures and mitigations\"\n---\n"
                 "# incidents\n\n## incident-2026-02-01\nRollback required due to migration timeout.\n\n"
                 "## incident-2026-02-27\nBlog build failed: `sass` missing after a dependency cleanup.\n",
}

DB_MD = """# Database Memory

## Schema
<!-- schema:start -->
### workouts
- id: integer (not null, primary key)
- day: date (not null)
- kind: text (not null)
- minutes: integer

### books
- id: integer (not null, primary key)
- title: text (not null)
- finished_at: timestamp without time zone
<!-- schema:end -->

## Recent Changes
<!-- changes:start -->
- [2026-02-20] create workouts table
- [2026-02-22] create books table
- [2026-02-27] add minutes to workouts
<!-- changes:end -->
"""
