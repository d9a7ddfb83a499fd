CREATE TABLE "control_plane" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"serving_since" timestamp with time zone NOT NULL,
	"last_served" timestamp with time zone NOT NULL,
	CONSTRAINT "control_plane_one_row" CHECK ("control_plane"."id" = 1)
);
