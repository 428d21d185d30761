import { retailCategory } from './retail.js';

describe('retail categories', () => {
  it('sorts OSM tags into the five categories, the specific ones before shops', () => {
    expect(retailCategory('amenity=marketplace')).toBe('markets');
    expect(retailCategory('shop=supermarket')).toBe('supermarkets');
    expect(retailCategory('shop=mall')).toBe('malls');
    expect(retailCategory('amenity=mobile_money_agent')).toBe('mobile_money_agents');
    expect(retailCategory('shop=mobile_money')).toBe('mobile_money_agents');
    expect(retailCategory('shop=convenience')).toBe('shops');
    expect(retailCategory('amenity=hospital')).toBeNull();
    expect(retailCategory('P.PPL')).toBeNull();
  });
});
