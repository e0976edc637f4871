import { PROTOCOL_IDS, type ProtocolId } from '../../../../shared/protocols/types';
import type { TabId } from '../../store/composer-slice';

export const isProtocolTab = (t: TabId): t is ProtocolId => (PROTOCOL_IDS as readonly string[]).includes(t);
