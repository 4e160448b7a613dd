-- A merge request row can also go by a cascade from its source project (a deleted fork); its noteables row, and with
-- it the discussion, must go too, or notes and todos would outlive what they are about.
CREATE TRIGGER merge_requests_noteable_gone AFTER DELETE ON merge_requests
BEGIN
  DELETE FROM noteables WHERE id = old.id;
END;
