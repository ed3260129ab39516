"""Flask extensions, created unbound here and bound to the app in create_app (Babel is made per
app there: it keeps loaded catalogues on itself)."""

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every table; models use it through ``db.Model``."""

    # Named constraints, so later migrations can alter them (SQLite batch mode needs names).
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


db = SQLAlchemy(model_class=Base)
# Batch mode lets later migrations ALTER tables on SQLite too.
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
login_manager = LoginManager()
# Per client address (behind a proxy, the address ProxyFix read from the trusted proxies); the
# limits themselves, storage and on/off come from the config (scorekeeper/web/limits.py).
limiter = Limiter(key_func=get_remote_address)
